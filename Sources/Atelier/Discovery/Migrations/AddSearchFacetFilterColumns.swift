import Fluent
import SQLKit

/// SQLite: the product columns a search's common filters read (gender, price, sale price and
/// currency) copied into `product_search_facets` too (issue 19), so that a search with words and
/// such filters counts its facets from the narrow numbered rows, as a search by its words alone
/// does, instead of joining every match's wide search-keys row and reading three 36-character ids
/// per match. The triggers are made again to copy them; PostgreSQL does not have the table.
struct AddSearchFacetFilterColumns: AsyncMigration {
    static let addedColumns: [CreateProductSearchFacets.CopiedColumn] = [
        .same("gender", type: "TEXT NOT NULL DEFAULT ''"), .same("price_minor", type: "INTEGER NOT NULL DEFAULT 0"),
        .same("original_price_minor", type: "INTEGER"), .same("currency", type: "TEXT NOT NULL DEFAULT ''"),
    ]

    /// Every copied column after this migration, in the table's order after `doc_id`.
    static var copiedColumns: [CreateProductSearchFacets.CopiedColumn] { CreateProductSearchFacets.copiedColumns + addedColumns }

    func prepare(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        try await Self.dropCopyingTriggers(on: sql)
        for column in Self.addedColumns {
            try await sql.raw("ALTER TABLE product_search_facets ADD COLUMN \(unsafeRaw: column.name) \(unsafeRaw: column.type ?? "")").run()
        }
        let names = Self.addedColumns.map(\.name).joined(separator: ", ")
        try await sql.raw("""
            UPDATE product_search_facets SET (\(unsafeRaw: names)) = (SELECT \(unsafeRaw: CreateProductSearchFacets.values(of: Self.addedColumns, from: "p"))
            FROM product_search_docs d JOIN products p ON p.id = d.product_id WHERE d.id = product_search_facets.doc_id)
            """).run()
        try await CreateProductSearchFacets.createTriggers(on: sql, copying: Self.copiedColumns)
    }

    func revert(on database: any Database) async throws {
        let sql = database.sql
        guard sql.dialect.name == "sqlite" else { return }
        try await Self.dropCopyingTriggers(on: sql)
        for column in Self.addedColumns {
            try await sql.raw("ALTER TABLE product_search_facets DROP COLUMN \(unsafeRaw: column.name)").run()
        }
        try await CreateProductSearchFacets.createTriggers(on: sql, copying: CreateProductSearchFacets.copiedColumns)
    }

    private static func dropCopyingTriggers(on sql: any SQLDatabase) async throws {
        for trigger in ["product_search_facets_ai", "product_search_facets_au"] {
            try await sql.raw("DROP TRIGGER IF EXISTS \(unsafeRaw: trigger)").run()
        }
    }
}
