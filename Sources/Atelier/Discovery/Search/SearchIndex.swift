import Fluent
import Foundation
import SQLKit

/// Keeps `product_search_docs` in step with the catalogue. Every write that changes a product's
/// searchable text calls `refresh` in its own transaction: product create and edit, and renames
/// of its store, brand or categories. One statement rebuilds the text of all products in scope.
struct SearchIndex {
    enum Scope: Sendable {
        case products([UUID])
        case store(UUID)
        case brand(UUID)
        /// Products filed anywhere under the category with this path.
        case categorySubtree(path: String)
        case all
    }

    let db: any Database

    private var isPostgres: Bool { db.sql.dialect.name == "postgresql" }

    func refresh(_ scope: Scope) async throws {
        if case .products(let ids) = scope, ids.isEmpty { return }
        let categoryNames = isPostgres
            ? "(SELECT string_agg(a.name, ' ' ORDER BY a.depth) FROM categories a WHERE a.path = substr(c.path, 1, length(a.path)))"
            : "(SELECT group_concat(a.name, ' ' ORDER BY a.depth) FROM categories a WHERE a.path = substr(c.path, 1, length(a.path)))"
        var select: SQLQueryString = """
            SELECT p.id AS product_id,
            p.title || ' ' || COALESCE(b.name, '') || ' ' || COALESCE(\(unsafeRaw: categoryNames), '') AS headline,
            p.description || ' ' || s.name || ' ' || replace(p.colors, ',', ' ') || ' ' || p.color_name || ' '
                || replace(p.styles, ',', ' ') || ' ' || p.fabric AS body
            FROM \(ident: Product.schema) p
            JOIN \(ident: Store.schema) s ON s.id = p.store_id
            JOIN \(ident: Category.schema) c ON c.id = p.category_id
            LEFT JOIN \(ident: Brand.schema) b ON b.id = p.brand_id
            WHERE
            """
        switch scope {
        case .products(let ids): select += " p.id IN (\(binds: ids))"
        case .store(let id): select += " p.store_id = \(bind: id)"
        case .brand(let id): select += " p.brand_id = \(bind: id)"
        case .categorySubtree(let path):
            select += " c.path >= \(bind: path) AND c.path < \(bind: Category.subtreeEnd(path))"
        case .all: select += " 1 = 1"
        }
        let upsert: SQLQueryString
        if isPostgres {
            upsert = """
                INSERT INTO product_search_docs (product_id, headline, body, tsv)
                SELECT d.product_id, d.headline, d.body,
                    setweight(to_tsvector('simple', public.unaccent(d.headline)), 'A') || setweight(to_tsvector('simple', public.unaccent(d.body)), 'B')
                FROM (\(select)) d
                ON CONFLICT (product_id) DO UPDATE SET headline = excluded.headline, body = excluded.body, tsv = excluded.tsv
                """
        } else {
            // The WHERE keeps SQLite from reading ON CONFLICT as part of the SELECT's join.
            upsert = """
                INSERT INTO product_search_docs (product_id, headline, body)
                SELECT d.product_id, d.headline, d.body FROM (\(select)) d WHERE true
                ON CONFLICT (product_id) DO UPDATE SET headline = excluded.headline, body = excluded.body
                WHERE headline IS NOT excluded.headline OR body IS NOT excluded.body
                """
        }
        try await db.sql.raw(upsert).run()
    }

    /// Removes a product's text (its row would also go by cascade; this keeps SQLite's FTS table exact).
    func remove(_ productID: UUID) async throws {
        try await db.sql.raw("DELETE FROM product_search_docs WHERE product_id = \(bind: productID)").run()
    }
}
