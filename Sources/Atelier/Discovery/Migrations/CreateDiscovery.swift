import Fluent
import SQLKit

/// Follows of stores and brands, likes (the lookbook), and the brands' follower counter.
struct CreateDiscovery: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Follow.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("target_type", .string, .required)
            .field("target_id", .uuid, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "target_type", "target_id")
            .create()

        try await database.schema(ProductLike.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("product_id", .uuid, .required, .references(Product.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "product_id")
            .create()

        try await database.schema(Brand.schema).field("follower_count", .int, .required, .sql(.default(0))).update()

        let sql = database.sql
        // The lookbook pages newest like first; a store's followers are counted and cleaned up by target.
        try await sql.create(index: "product_likes_user_idx").on(ProductLike.schema).column("user_id").column("id").run()
        try await sql.create(index: "product_likes_product_idx").on(ProductLike.schema).column("product_id").run()
        try await sql.create(index: "follows_target_idx").on(Follow.schema).column("target_type").column("target_id").run()
        // The feeds walk products by their sort key.
        try await sql.create(index: "products_feed_idx").on(Product.schema).column("status").column("feed_sort_key").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Brand.schema).deleteField("follower_count").update()
        try await database.schema(ProductLike.schema).delete()
        try await database.schema(Follow.schema).delete()
    }
}
