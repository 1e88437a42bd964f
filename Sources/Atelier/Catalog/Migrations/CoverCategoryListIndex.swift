import Fluent
import SQLKit

/// The category list's index carries the price and the store too (issue 19): a category page with
/// a price window walks the category's products newest first and keeps those in the window of an
/// open store, and with those two columns in the index it reads a product row only for the page's
/// own products instead of one per product walked past (a narrow window walks hundreds).
struct CoverCategoryListIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("DROP INDEX products_category_status_idx").run()
        try await sql.create(index: "products_category_status_idx").on(Product.schema)
            .column("category_id").column("status").column("id").column("price_minor").column("store_id").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("DROP INDEX products_category_status_idx").run()
        try await sql.create(index: "products_category_status_idx").on(Product.schema).column("category_id").column("status").column("id").run()
    }
}
