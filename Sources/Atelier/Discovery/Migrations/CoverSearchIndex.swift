import Fluent
import SQLKit

/// An index that answers a search's per-product questions without reading the product rows
/// (issue 19): ranking, filters and facet counts look up each matched product by id and read its
/// status, store, category, brand, colours, gender, prices and the sort columns. With all of them
/// in one narrow index, a search for a common word reads index pages instead of tens of thousands of
/// product rows with their descriptions (SQLite, 100 000 products, facets of "cotton": 0.16 s → 0.10 s
/// of CPU; the rest is the full-text match itself, see docs/benchmarks.md). The stores index serves
/// the "open stores" test in every list.
struct CoverSearchIndex: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        try await sql.create(index: "products_search_cover_idx").on(Product.schema)
            .column("id").column("status").column("store_id").column("category_id").column("brand_id").column("colors")
            .column("gender").column("price_minor").column("original_price_minor").column("like_count").column("rating_sum")
            .column("review_count").run()
        try await sql.create(index: "stores_status_idx").on(Store.schema).column("status").column("members_only").column("id").run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        try await sql.drop(index: "products_search_cover_idx").run()
        try await sql.drop(index: "stores_status_idx").run()
    }
}
