import Foundation

/// A product as its page and the API show it, read without a model (`ProductViewReader`, issue 19):
/// filling and freeing a Fluent model's 25 fields cost a product page more than writing it out.
struct ProductLine: ProductColumns, Sendable {
    var id: UUID
    var storeID: UUID
    var title: String
    var description: String
    var brandID: UUID?
    var categoryID: UUID
    var gender: String
    var priceMinor: Int
    var originalPriceMinor: Int?
    var currency: String
    /// Comma-separated, as stored (`colors` splits it).
    var colorsList: String
    var colorName: String
    var fabric: String
    /// Comma-separated, as stored (`styles` splits it).
    var stylesList: String
    var status: String
    var minAge: Int?
    var externalURL: String?
    var tradePriceMinor: Int?
    var caseSize: Int
    var reviewCount: Int
    var ratingSum: Int
    var likeCount: Int
    var createdAt: Date
    var updatedAt: Date

    /// The columns `init(_:)` reads from products `p`.
    static let columns = """
        p.id, p.store_id, p.title, p.description, p.brand_id, p.category_id, p.gender, p.price_minor, p.original_price_minor,
        p.currency, p.colors, p.color_name, p.fabric, p.styles, p.status, p.min_age, p.external_url, p.trade_price_minor,
        p.case_size, p.review_count, p.rating_sum, p.like_count, p.created_at, p.updated_at
        """

    init(_ row: FastColumns) throws {
        id = try row.uuid("id")
        storeID = try row.uuid("store_id")
        title = try row.value("title", as: String.self)
        description = try row.value("description", as: String.self)
        brandID = try row.optionalUUID("brand_id")
        categoryID = try row.uuid("category_id")
        gender = try row.value("gender", as: String.self)
        priceMinor = try row.value("price_minor", as: Int.self)
        originalPriceMinor = try row.optional("original_price_minor", as: Int.self)
        currency = try row.value("currency", as: String.self)
        colorsList = try row.value("colors", as: String.self)
        colorName = try row.value("color_name", as: String.self)
        fabric = try row.value("fabric", as: String.self)
        stylesList = try row.value("styles", as: String.self)
        status = try row.value("status", as: String.self)
        minAge = try row.optional("min_age", as: Int.self)
        externalURL = try row.optional("external_url", as: String.self)
        tradePriceMinor = try row.optional("trade_price_minor", as: Int.self)
        caseSize = try row.value("case_size", as: Int.self)
        reviewCount = try row.value("review_count", as: Int.self)
        ratingSum = try row.value("rating_sum", as: Int.self)
        likeCount = try row.value("like_count", as: Int.self)
        createdAt = try row.value("created_at", as: Date.self)
        updatedAt = try row.value("updated_at", as: Date.self)
    }
}
