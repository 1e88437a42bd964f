import Fluent
import SQLKit

/// SQLite: what a search's facets count, per full-text row, with the store, brand and category as
/// small numbers (issue 19). A first search for a common word counts facets over tens of thousands
/// of matches; read from the search keys, each match brought three 36-character ids (3 MB joined for
/// "cotton") and a text test of its store, and that pass took longer than the ranking. Here a match
/// is a narrow row of integers: the same pass reads a third of the pages and joins short numbers.
///
/// `search_facet_numbers` gives each store, brand and category id that a product refers to a number
/// for good (an INTEGER PRIMARY KEY keeps its value through VACUUM and backups). Triggers keep
/// `product_search_facets` exact, whoever writes, as they do the search keys: a row comes and goes
/// with the product's search document and follows every change of the product columns it copies.
/// Whether the store is public is not copied: a search tests it through the numbers, so a store
/// going members-only or inactive changes no row here. PostgreSQL does not need it.
struct CreateProductSearchFacets: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        try await sql.raw("CREATE TABLE search_facet_numbers (no INTEGER PRIMARY KEY, id BLOB NOT NULL UNIQUE)").run()
        try await sql.raw("""
            CREATE TABLE product_search_facets (
                doc_id INTEGER PRIMARY KEY,
                active INTEGER NOT NULL,
                store_no INTEGER NOT NULL,
                brand_no INTEGER,
                category_no INTEGER NOT NULL,
                colors TEXT NOT NULL)
            """).run()
        try await Self.createTriggers(on: sql, copying: Self.copiedColumns)
        try await sql.raw("""
            CREATE TRIGGER product_search_facets_ad AFTER DELETE ON product_search_docs BEGIN
                DELETE FROM product_search_facets WHERE doc_id = old.id;
            END
            """).run()
        try await sql.raw("""
            INSERT OR IGNORE INTO search_facet_numbers (id)
            SELECT p.store_id FROM products p UNION SELECT p.brand_id FROM products p WHERE p.brand_id IS NOT NULL
            UNION SELECT p.category_id FROM products p
            """).run()
        try await sql.raw("""
            INSERT INTO product_search_facets (doc_id, active, store_no, brand_no, category_no, colors)
            SELECT d.id, \(unsafeRaw: Self.values(of: Self.copiedColumns, from: "p")) FROM product_search_docs d JOIN products p ON p.id = d.product_id
            """).run()
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        for trigger in ["product_search_facets_ai", "product_search_facets_ad", "product_search_facets_au"] {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: trigger)").run()
        }
        try await sql.raw("DROP TABLE IF EXISTS product_search_facets").run()
        try await sql.raw("DROP TABLE IF EXISTS search_facet_numbers").run()
    }

    /// A column of `product_search_facets` copied from the product: the product columns it reads,
    /// its SQL type when a later migration adds it, and its value from a product row aliased as given.
    struct CopiedColumn: Sendable {
        var name: String
        var reads: [String]
        var type: String? = nil
        var value: @Sendable (_ product: String) -> String

        /// A product column copied as it is.
        static func same(_ name: String, type: String? = nil) -> CopiedColumn {
            .init(name: name, reads: [name], type: type) { "\($0).\(name)" }
        }

        /// An id replaced by its facet number.
        static func numbered(_ name: String, from column: String) -> CopiedColumn {
            .init(name: name, reads: [column]) { "(SELECT n.no FROM search_facet_numbers n WHERE n.id = \($0).\(column))" }
        }
    }

    /// The columns after `doc_id`, as this migration made them. Frozen: a later migration adds its
    /// own list (`AddSearchFacetFilterColumns.addedColumns`).
    static let copiedColumns: [CopiedColumn] = [
        .init(name: "active", reads: ["status"]) { "\($0).status = '\(Product.Status.active.rawValue)'" },
        .numbered("store_no", from: "store_id"), .numbered("brand_no", from: "brand_id"),
        .numbered("category_no", from: "category_id"), .same("colors"),
    ]

    /// The triggers that keep every row exact: it comes with the product's search document (its
    /// store, brand and category numbered first) and follows every change of the columns it copies.
    /// (`product_search_facets_ad`, the row going with the document, does not depend on them.)
    /// Shipped migrations call this, `values(of:from:)` and `numbering`, each with its own list of
    /// columns: a change here changes what they made on a new database. A new trigger shape belongs
    /// in a new function of the migration that needs it.
    static func createTriggers(on sql: any SQLDatabase, copying columns: [CopiedColumn]) async throws {
        let names = columns.map(\.name).joined(separator: ", ")
        var read: [String] = []
        for column in columns.flatMap(\.reads) where !read.contains(column) { read.append(column) }
        try await sql.raw("""
            CREATE TRIGGER product_search_facets_ai AFTER INSERT ON product_search_docs BEGIN
                \(unsafeRaw: numbering("p", from: "FROM products p WHERE p.id = new.product_id"))
                INSERT OR REPLACE INTO product_search_facets (doc_id, \(unsafeRaw: names))
                SELECT new.id, \(unsafeRaw: values(of: columns, from: "p")) FROM products p WHERE p.id = new.product_id;
            END
            """).run()
        try await sql.raw("""
            CREATE TRIGGER product_search_facets_au AFTER UPDATE OF \(unsafeRaw: read.joined(separator: ", ")) ON products BEGIN
                \(unsafeRaw: numbering("new", from: ""))
                UPDATE product_search_facets SET (\(unsafeRaw: names)) = (SELECT \(unsafeRaw: values(of: columns, from: "new")))
                WHERE doc_id = (SELECT d.id FROM product_search_docs d WHERE d.product_id = new.id);
            END
            """).run()
    }

    /// The values of `columns` from product row `p`, in order.
    static func values(of columns: [CopiedColumn], from p: String) -> String {
        columns.map { $0.value(p) }.joined(separator: ", ")
    }

    /// A trigger statement that gives the store, brand and category of product `p` (read `from`)
    /// their numbers.
    private static func numbering(_ p: String, from: String) -> String {
        let only = from.isEmpty ? "WHERE" : "\(from) AND"
        return """
            INSERT OR IGNORE INTO search_facet_numbers (id) SELECT \(p).store_id \(from) UNION SELECT \(p).category_id \(from)
                UNION SELECT \(p).brand_id \(only) \(p).brand_id IS NOT NULL;
            """
    }
}
