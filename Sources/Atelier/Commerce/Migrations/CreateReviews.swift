import Fluent
import SQLKit

/// Reviews, and the counters behind a product's average rating and the `top_rated` sort.
struct CreateReviews: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Product.schema).field("review_count", .int, .required, .sql(.default(0))).update()
        try await database.schema(Product.schema).field("rating_sum", .int, .required, .sql(.default(0))).update()
        try await database.schema(Review.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("product_id", .uuid, .required, .references(Product.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("stars", .int, .required)
            .field("text", .string, .required)
            .field("verified", .bool, .required)
            .field("reply", .string)
            .field("replied_at", .datetime)
            .field("hidden_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "product_id", "user_id")
            .create()
        try await database.sql.create(index: "reviews_product").on(Review.schema).column("product_id").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Review.schema).delete()
        try await database.schema(Product.schema).deleteField("rating_sum").update()
        try await database.schema(Product.schema).deleteField("review_count").update()
    }
}
