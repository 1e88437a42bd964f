import Fluent
import SQLKit

/// The feed index carries every column the feeds filter on (issue 19): a feed walks active products
/// by their sort key and keeps those of the followed or nearby stores, brands, genders and upload
/// window; with those columns in the index it reads a product row only for the page's own
/// products, not one per product walked past (a shopper following two stores walks thousands).
struct CoverFeedIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("DROP INDEX products_feed_idx").run()
        try await sql.create(index: "products_feed_idx").on(Product.schema)
            .column("status").column("feed_sort_key").column("id").column("store_id").column("brand_id").column("gender").column("created_at")
            .run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("DROP INDEX products_feed_idx").run()
        try await sql.create(index: "products_feed_idx").on(Product.schema).column("status").column("feed_sort_key").column("id").run()
    }
}
