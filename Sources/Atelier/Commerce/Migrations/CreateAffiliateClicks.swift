import Fluent
import SQLKit

/// Clicks through `/go/{productId}` to a product's external shop, per product per day.
struct CreateAffiliateClicks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("affiliate_clicks")
            .field("product_id", .uuid, .required, .references(Product.schema, "id", onDelete: .cascade))
            .field("store_id", .uuid, .required, .references(Store.schema, "id", onDelete: .cascade))
            .field("day", .string, .required)
            .field("clicks", .int, .required)
            .unique(on: "product_id", "day")
            .create()
        try await database.sql.create(index: "affiliate_clicks_store_day").on("affiliate_clicks").column("store_id").column("day").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("affiliate_clicks").delete()
    }
}
