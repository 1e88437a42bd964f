import Fluent
import Foundation
import SQLKit

/// Product views read with plain SQL: the hot path of product lists and product pages (issue 9).
/// One statement reads the products with their store, brand, category and category trail joined,
/// one the variants, one the photos with their media. Rows become plain rows (`ProductLine`,
/// `StoreLine`, `BrandLine`, `CategoryLine`, `VariantLine`, `MediaLine`): Fluent's models cost more
/// to fill and free than SQLite took to read them.
struct ProductViewReader {
    let sql: any SQLDatabase
    private let textUUIDs: Bool

    init(db: any Database) {
        sql = db.sql
        textUUIDs = FastColumns.textUUIDs(on: sql)
    }

    /// The views of `ids` that exist, in the order of `ids`.
    func views(ids: [UUID]) async throws -> [ProductView] {
        guard !ids.isEmpty else { return [] }
        let unique = Array(Set(ids))
        // The variants and photos need only the ids asked for: the three statements go together
        // (one trip to the thread that reads, on SQLite's read pool: `BatchedReads`).
        let products = Self.statements.statement(.productsByID(count: unique.count), on: sql, binds: unique) {
            productsQuery(where: "p.id IN (\(binds: unique))", orderBy: "p.id")
        }
        let rows = try await sql.readAll([products, variantsStatement(unique), photosStatement(unique)])
        return try assemble(products: rows[0], variants: rows[1], photos: rows[2]).inOrder(of: ids) { $0.product.id }
    }

    /// The views of the products that `condition` (on products `p`) admits, in `order`, at most `limit`.
    func views(where condition: SQLQueryString, orderBy order: String, limit: Int? = nil) async throws -> [ProductView] {
        let products = try await sql.raw(productsQuery(where: condition, orderBy: order, limit: limit)).all()
        guard !products.isEmpty else { return [] }
        let ids = try products.map { try FastColumns($0, textUUIDs: textUUIDs).uuid("id") }
        let rows = try await sql.readAll([variantsStatement(ids), photosStatement(ids)])
        return try assemble(products: products, variants: rows[0], photos: rows[1])
    }

    private func productsQuery(where condition: SQLQueryString, orderBy order: String, limit: Int? = nil) -> SQLQueryString {
        var query: SQLQueryString = """
            SELECT \(unsafeRaw: ProductLine.columns), \(unsafeRaw: StoreLine.columns), \(unsafeRaw: BrandLine.columns),
            \(unsafeRaw: CategoryLine.columns), \(unsafeRaw: trailColumn) AS trail
            FROM \(ident: Product.schema) p
            JOIN \(ident: Store.schema) s ON s.id = p.store_id
            JOIN \(ident: Category.schema) c ON c.id = p.category_id
            LEFT JOIN \(ident: Brand.schema) b ON b.id = p.brand_id
            WHERE \(condition) ORDER BY \(unsafeRaw: order)
            """
        if let limit { query += " LIMIT \(unsafeRaw: String(limit))" }
        return query
    }

    /// What decides the text of a statement kept in `statements`, besides the dialect.
    private enum Statement: Hashable, Sendable {
        case productsByID(count: Int)
        case variants(count: Int)
        case photos(count: Int)
    }

    private static let statements = KeptStatements<Statement>()

    private func variantsStatement(_ productIDs: [UUID]) -> KeptStatement {
        Self.statements.statement(.variants(count: productIDs.count), on: sql, binds: productIDs) {
            """
            SELECT \(unsafeRaw: VariantLine.columns) FROM \(ident: ProductVariant.schema)
            WHERE product_id IN (\(binds: productIDs)) ORDER BY position
            """
        }
    }

    private func photosStatement(_ productIDs: [UUID]) -> KeptStatement {
        Self.statements.statement(.photos(count: productIDs.count), on: sql, binds: productIDs) {
            """
            SELECT pp.product_id AS photo_of, \(unsafeRaw: Self.photoColumns) FROM \(ident: ProductPhoto.schema) pp
            JOIN \(ident: Media.schema) m ON m.id = pp.media_id
            WHERE pp.product_id IN (\(binds: productIDs)) ORDER BY pp.position
            """
        }
    }

    /// Views from the product rows, each with its variants and photos among those rows.
    private func assemble(products: [any SQLRow], variants variantRows: [any SQLRow], photos photoRows: [any SQLRow]) throws -> [ProductView] {
        var views = try products.map { try Self.view($0, textUUIDs: textUUIDs) }
        var variants: [UUID: [VariantLine]] = [:]
        for row in variantRows {
            let variant = try VariantLine(FastColumns(row, textUUIDs: textUUIDs))
            variants[variant.productID, default: []].append(variant)
        }
        var photos: [UUID: [MediaLine]] = [:]
        for row in photoRows {
            let columns = FastColumns(row, textUUIDs: textUUIDs)
            photos[try columns.uuid("photo_of"), default: []].append(try MediaLine(columns, prefix: ""))
        }
        for index in views.indices {
            let id = views[index].product.id
            views[index].variants = variants[id] ?? []
            views[index].photos = photos[id] ?? []
        }
        return views
    }

    /// Media rows by id (store logos and covers, brand logos), keyed by id.
    func media(ids: [UUID]) async throws -> [UUID: MediaLine] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await sql.raw("SELECT \(unsafeRaw: Self.photoColumns) FROM \(ident: Media.schema) m WHERE m.id IN (\(binds: Array(Set(ids))))").all()
        return Dictionary(try rows.map { row in let media = try MediaLine(FastColumns(row, textUUIDs: textUUIDs), prefix: ""); return (media.id!, media) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - Columns and rows

    /// The names of the category and its ancestors, root first, joined by U+001F. The ancestors are
    /// found up the parents, one look-up by id each: finding them by path prefix compared every
    /// category's path, nearly half of a product page's main statement (issue 19). Each step must go
    /// to a lower depth, so a broken parent chain ends rather than loops.
    private var trailColumn: String {
        let ancestors = """
            WITH RECURSIVE up(name, parent_id, depth) AS (SELECT c.name, c.parent_id, c.depth UNION ALL
            SELECT a.name, a.parent_id, a.depth FROM categories a JOIN up ON a.id = up.parent_id AND a.depth < up.depth)
            """
        return sql.dialect.name == "postgresql"
            ? "(\(ancestors) SELECT string_agg(up.name, chr(31) ORDER BY up.depth) FROM up)"
            : "(\(ancestors) SELECT group_concat(name, char(31) ORDER BY depth) FROM up)"
    }

    private static let photoColumns = MediaLine.columns(prefix: "")

    private static func view(_ raw: any SQLRow, textUUIDs: Bool) throws -> ProductView {
        let row = FastColumns(raw, textUUIDs: textUUIDs)
        let product = try ProductLine(row)

        let store = try StoreLine(row, id: product.storeID)

        let brand = try BrandLine(row, id: product.brandID)
        let category = try CategoryLine(row, id: product.categoryID)
        let trail = (try row.optional("trail", as: String.self) ?? "").split(separator: "\u{1F}").map(String.init)

        return ProductView(product: product, store: store, brand: brand, category: category, trail: trail, variants: [], photos: [])
    }
}
