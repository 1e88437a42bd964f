import Fluent
import Foundation
import SQLKit

/// A product as a card shows it (lists, feeds, search, boards, wishlists; the API's `ProductCard`
/// and the web's cards): plain values and the first photo, nothing else.
struct ProductCardView: Sendable {
    struct StoreLine: Sendable {
        var id: UUID
        var name: String
        var slug: String
        var city: String
        var lat: Double
        var lng: Double
        var isActive: Bool
        var membersOnly: Bool
        /// Active and open to everyone (`Store.isPublic`).
        var isPublic: Bool { isActive && !membersOnly }
    }

    var id: UUID
    var title: String
    var gender: String
    var priceMinor: Int
    var originalPriceMinor: Int?
    var currency: String
    var status: String
    var reviewCount: Int
    var ratingSum: Int
    var likeCount: Int
    var createdAt: Date
    /// A wholesaler's price per unit for its trade customers (shown only to those who may see it).
    var tradePriceMinor: Int?
    var caseSize: Int
    var store: StoreLine
    var brandName: String?
    /// The first photo; nil for a product without one.
    var photo: MediaLine?

    var isActive: Bool { status == Product.Status.active.rawValue }
}

/// Cards read in one statement (issue 19). A list page used to read each product's whole view —
/// every column of the product and its store, brand, category and category trail, all variants and all
/// photos — in three statements, then build a Fluent model for each, and show a fifth of it.
struct ProductCardReader {
    let sql: any SQLDatabase
    private let textUUIDs: Bool

    init(db: any Database) {
        sql = db.sql
        textUUIDs = FastColumns.textUUIDs(on: sql)
    }

    /// The cards of `ids` that exist, in the order of `ids`.
    func cards(ids: [UUID]) async throws -> [ProductCardView] {
        guard !ids.isEmpty else { return [] }
        let found = try await cards(where: "p.id IN (\(binds: Array(Set(ids))))", orderBy: "p.id")
        return found.inOrder(of: ids) { $0.id }
    }

    /// The cards of the products that `condition` (on products `p`) admits, in `order`, at most `limit`.
    func cards(where condition: SQLQueryString, orderBy order: String, limit: Int? = nil) async throws -> [ProductCardView] {
        // The first photo by a correlated look-up in `product_photos_product_idx` (product, position).
        var query: SQLQueryString = """
            SELECT \(unsafeRaw: Self.columns), \(unsafeRaw: Self.photoColumns)
            FROM \(ident: Product.schema) p
            JOIN \(ident: Store.schema) s ON s.id = p.store_id
            LEFT JOIN \(ident: Brand.schema) b ON b.id = p.brand_id
            LEFT JOIN \(ident: Media.schema) m ON m.id = (SELECT pp.media_id FROM \(ident: ProductPhoto.schema) pp
                WHERE pp.product_id = p.id ORDER BY pp.position LIMIT 1)
            WHERE \(condition) ORDER BY \(unsafeRaw: order)
            """
        if let limit { query += " LIMIT \(unsafeRaw: String(limit))" }
        return try await sql.raw(query).all().map { try card($0) }
    }

    private static let columns = """
        p.id, p.title, p.gender, p.price_minor, p.original_price_minor, p.currency, p.status, p.review_count, p.rating_sum,
        p.like_count, p.created_at, p.trade_price_minor, p.case_size, p.store_id, s.name AS s_name, s.slug AS s_slug, s.city AS s_city, s.lat AS s_lat,
        s.lng AS s_lng, s.status AS s_status, s.members_only AS s_members_only, b.name AS b_name
        """
    private static let photoColumns = MediaLine.columns(prefix: "m_")

    private func card(_ raw: any SQLRow) throws -> ProductCardView {
        let row = FastColumns(raw, textUUIDs: textUUIDs)
        let storeIsActive = try row.value("s_status", as: String.self) == Store.Status.active.rawValue
        let storeIsMembersOnly = try row.value("s_members_only", as: Bool.self)
        let photo = try raw.decodeNil(column: "m_id") ? nil : try MediaLine(row, prefix: "m_")
        return ProductCardView(
            id: try row.uuid("id"), title: try row.value("title"), gender: try row.value("gender"),
            priceMinor: try row.value("price_minor"), originalPriceMinor: try row.optional("original_price_minor"),
            currency: try row.value("currency"), status: try row.value("status"), reviewCount: try row.value("review_count"),
            ratingSum: try row.value("rating_sum"), likeCount: try row.value("like_count"), createdAt: try row.value("created_at"),
            tradePriceMinor: try row.optional("trade_price_minor"), caseSize: try row.value("case_size"),
            store: .init(
                id: try row.uuid("store_id"), name: try row.value("s_name"), slug: try row.value("s_slug"), city: try row.value("s_city"),
                lat: try row.value("s_lat"), lng: try row.value("s_lng"),
                isActive: storeIsActive, membersOnly: storeIsMembersOnly),
            brandName: try row.optional("b_name"),
            photo: photo)
    }
}
