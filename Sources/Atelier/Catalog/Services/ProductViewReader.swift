import Fluent
import Foundation
import SQLKit

/// Product views read with plain SQL: the hot path of product lists and product pages (issue 9).
/// One statement reads the products with their store, brand, category and category trail joined,
/// one the variants, one the photos with their media. Rows become models field by field, without
/// Fluent's per-row reflection and query building, which cost more than SQLite itself here; the
/// variants and photos, a product's most rows, become plain rows (`VariantLine`, `MediaLine`).
struct ProductViewReader {
    let sql: any SQLDatabase
    private let textUUIDs: Bool

    init(db: any Database) {
        sql = db as! any SQLDatabase
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
            SELECT \(unsafeRaw: ProductLine.columns), \(unsafeRaw: Self.storeColumns), \(unsafeRaw: Self.brandColumns),
            \(unsafeRaw: Self.categoryColumns), \(unsafeRaw: trailColumn) AS trail
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
            : "(\(ancestors) SELECT group_concat(name, char(31)) FROM (SELECT name FROM up ORDER BY depth))"
    }

    private static let storeColumns = """
        s.name AS s_name, s.slug AS s_slug, s.about AS s_about, s.phone AS s_phone, s.email AS s_email, s.website AS s_website,
        s.street AS s_street, s.postal_code AS s_postal_code, s.city AS s_city, s.lat AS s_lat, s.lng AS s_lng,
        s.opening_hours AS s_opening_hours, s.logo_media_id AS s_logo_media_id, s.cover_media_id AS s_cover_media_id,
        s.time_zone AS s_time_zone, s.status AS s_status, s.members_only AS s_members_only, s.follower_count AS s_follower_count,
        s.active_product_count AS s_active_product_count, s.created_at AS s_created_at, s.updated_at AS s_updated_at
        """
    private static let brandColumns = """
        b.name AS b_name, b.slug AS b_slug, b.logo_media_id AS b_logo_media_id, b.status AS b_status,
        b.proposed_by_store_id AS b_proposed_by_store_id, b.follower_count AS b_follower_count, b.created_at AS b_created_at
        """
    private static let categoryColumns = """
        c.parent_id AS c_parent_id, c.name AS c_name, c.slug AS c_slug, c.gender AS c_gender, c.path AS c_path,
        c.depth AS c_depth, c.created_at AS c_created_at
        """
    private static let photoColumns = MediaLine.columns(prefix: "")

    private static func view(_ raw: any SQLRow, textUUIDs: Bool) throws -> ProductView {
        let row = FastColumns(raw, textUUIDs: textUUIDs)
        let product = try ProductLine(row)

        let store = Store()
        store.id = product.storeID
        store.name = try row.value("s_name", as: String.self)
        store.slug = try row.value("s_slug", as: String.self)
        store.about = try row.value("s_about", as: String.self)
        store.phone = try row.value("s_phone", as: String.self)
        store.email = try row.value("s_email", as: String.self)
        store.website = try row.value("s_website", as: String.self)
        store.street = try row.value("s_street", as: String.self)
        store.postalCode = try row.value("s_postal_code", as: String.self)
        store.city = try row.value("s_city", as: String.self)
        store.lat = try row.value("s_lat", as: Double.self)
        store.lng = try row.value("s_lng", as: Double.self)
        store.openingHoursJSON = try row.value("s_opening_hours", as: String.self)
        store.logoMediaID = try row.optionalUUID("s_logo_media_id")
        store.coverMediaID = try row.optionalUUID("s_cover_media_id")
        store.timeZone = try row.value("s_time_zone", as: String.self)
        store.status = try row.value("s_status", as: String.self)
        store.membersOnly = try row.value("s_members_only", as: Bool.self)
        store.followerCount = try row.value("s_follower_count", as: Int.self)
        store.activeProductCount = try row.value("s_active_product_count", as: Int.self)
        store.createdAt = try row.value("s_created_at", as: Date.self)
        store.updatedAt = try row.value("s_updated_at", as: Date.self)

        var brand: Brand?
        if let brandID = product.brandID, let name = try row.optional("b_name", as: String.self) {
            let b = Brand()
            b.id = brandID
            b.name = name
            b.slug = try row.value("b_slug", as: String.self)
            b.logoMediaID = try row.optionalUUID("b_logo_media_id")
            b.status = try row.value("b_status", as: String.self)
            b.proposedByStoreID = try row.optionalUUID("b_proposed_by_store_id")
            b.followerCount = try row.value("b_follower_count", as: Int.self)
            b.createdAt = try row.value("b_created_at", as: Date.self)
            brand = b
        }

        let category = Category()
        category.id = product.categoryID
        category.parentID = try row.optionalUUID("c_parent_id")
        category.name = try row.value("c_name", as: String.self)
        category.slug = try row.value("c_slug", as: String.self)
        category.gender = try row.value("c_gender", as: String.self)
        category.path = try row.value("c_path", as: String.self)
        category.depth = try row.value("c_depth", as: Int.self)
        category.createdAt = try row.value("c_created_at", as: Date.self)
        let trail = (try row.optional("trail", as: String.self) ?? "").split(separator: "\u{1F}").map(String.init)

        return ProductView(product: product, store: store, brand: brand, category: category, trail: trail, variants: [], photos: [])
    }
}
