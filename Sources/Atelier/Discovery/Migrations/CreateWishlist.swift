import Fluent
import SQLKit

/// The wishlist: products a user means to see in the store.
struct CreateWishlist: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(WishlistItem.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("product_id", .uuid, .required, .references(Product.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "product_id")
            .create()
        try await database.sql.create(index: "wishlist_items_user_idx")
            .on(WishlistItem.schema).column("user_id").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(WishlistItem.schema).delete()
    }
}
