import Fluent
import SQLKit

/// SQLite: a narrow copy of what a search asks of each matched product, keyed by the full-text
/// row id (issue 19). A search for a common word matches tens of thousands of products; going from
/// the FTS row to the product cost two lookups by 36-character text key (`product_search_docs`, then
/// the product's covering index). This table is reached by the integer row id alone and holds every
/// column the filters and facets read, under the products' own names (`id` is the product's), so the
/// same conditions apply to it aliased `p`. Ranking by relevance and the facets of a text search
/// read only this table; other sorts and searches without words still read products.
///
/// Triggers keep it exact, whoever writes: a row comes with the product's search document, goes
/// with it, and follows every change of the copied product columns. PostgreSQL joins by UUID
/// through hash joins and does not need it.
struct CreateProductSearchKeys: AsyncMigration {
    static let copiedColumns = ["status", "store_id", "brand_id", "category_id", "colors", "gender", "price_minor", "original_price_minor"]

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        let columns = Self.copiedColumns.joined(separator: ", ")
        let fromProduct = Self.copiedColumns.map { "p.\($0)" }.joined(separator: ", ")
        try await sql.raw("""
            CREATE TABLE product_search_keys (
                doc_id INTEGER PRIMARY KEY,
                id BLOB NOT NULL UNIQUE,
                status TEXT NOT NULL,
                store_id BLOB NOT NULL,
                brand_id BLOB,
                category_id BLOB NOT NULL,
                colors TEXT NOT NULL,
                gender TEXT NOT NULL,
                price_minor INTEGER NOT NULL,
                original_price_minor INTEGER)
            """).run()
        try await sql.raw("""
            CREATE TRIGGER product_search_keys_ai AFTER INSERT ON product_search_docs BEGIN
                DELETE FROM product_search_keys WHERE id = new.product_id;
                INSERT INTO product_search_keys (doc_id, id, \(unsafeRaw: columns))
                SELECT new.id, p.id, \(unsafeRaw: fromProduct) FROM products p WHERE p.id = new.product_id;
            END
            """).run()
        try await sql.raw("""
            CREATE TRIGGER product_search_keys_ad AFTER DELETE ON product_search_docs BEGIN
                DELETE FROM product_search_keys WHERE doc_id = old.id;
            END
            """).run()
        let assignments = Self.copiedColumns.map { "\($0) = new.\($0)" }.joined(separator: ", ")
        try await sql.raw("""
            CREATE TRIGGER product_search_keys_au AFTER UPDATE OF \(unsafeRaw: columns) ON products BEGIN
                UPDATE product_search_keys SET \(unsafeRaw: assignments) WHERE id = new.id;
            END
            """).run()
        try await sql.raw("""
            INSERT INTO product_search_keys (doc_id, id, \(unsafeRaw: columns))
            SELECT d.id, p.id, \(unsafeRaw: fromProduct) FROM product_search_docs d JOIN products p ON p.id = d.product_id
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        for trigger in ["product_search_keys_ai", "product_search_keys_ad", "product_search_keys_au"] {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: trigger)").run()
        }
        try await sql.raw("DROP TABLE IF EXISTS product_search_keys").run()
    }
}
