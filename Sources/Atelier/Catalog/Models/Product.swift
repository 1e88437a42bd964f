import Fluent
import Foundation

/// Something that hangs in a store. Money is in minor units with an ISO 4217 code.
final class Product: Model, @unchecked Sendable {
    static let schema = "products"

    enum Status: String, Codable, Sendable, CaseIterable { case active, inactive }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "store_id") var store: Store
    @Field(key: "title") var title: String
    @Field(key: "description") var description: String
    @OptionalField(key: "brand_id") var brandID: UUID?
    @Field(key: "category_id") var categoryID: UUID
    @Field(key: "gender") var gender: String
    @Field(key: "price_minor") var priceMinor: Int
    @OptionalField(key: "original_price_minor") var originalPriceMinor: Int?
    @Field(key: "currency") var currency: String
    /// Comma-separated palette colours.
    @Field(key: "colors") var colorsList: String
    @Field(key: "color_name") var colorName: String
    @Field(key: "fabric") var fabric: String
    /// Comma-separated style tags.
    @Field(key: "styles") var stylesList: String
    @Field(key: "status") var status: String
    @OptionalField(key: "min_age") var minAge: Int?
    @OptionalField(key: "external_url") var externalURL: String?
    /// The price approved trade customers of the store pay, and the case they order in multiples of.
    @OptionalField(key: "trade_price_minor") var tradePriceMinor: Int?
    @Field(key: "case_size") var caseSize: Int
    /// Visible reviews and the sum of their stars (the average is their quotient).
    @Field(key: "review_count") var reviewCount: Int
    @Field(key: "rating_sum") var ratingSum: Int
    @Field(key: "like_count") var likeCount: Int
    /// Creation time plus a random offset (discovery.md), as seconds since 1970.
    @Field(key: "feed_sort_key") var feedSortKey: Double
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// What a product's columns say beyond themselves: `Product` (the model) and `ProductLine` (the
/// plain row a product's page reads) have it.
protocol ProductColumns {
    var colorsList: String { get }
    var stylesList: String { get }
    var status: String { get }
}

extension ProductColumns {
    var isActive: Bool { status == Product.Status.active.rawValue }
    var colors: [String] { colorsList.split(separator: ",").map(String.init) }
    var styles: [String] { stylesList.split(separator: ",").map(String.init) }
}

extension Product: ProductColumns {}

/// One size (and optionally colour) of a product, with its stock.
final class ProductVariant: Model, @unchecked Sendable {
    static let schema = "product_variants"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "product_id") var product: Product
    @Field(key: "size") var size: String
    @OptionalField(key: "color") var color: String?
    /// On hand in the shop. Orders count what they take in `held` and `allocated` until handover.
    @Field(key: "stock") var stock: Int
    @OptionalField(key: "sku") var sku: String?
    @Field(key: "position") var position: Int
    @Field(key: "held") var held: Int
    @Field(key: "allocated") var allocated: Int
    @OptionalField(key: "low_stock_threshold") var lowStockThreshold: Int?
    /// Set when staff were told the variant ran low; cleared when it is restocked above the threshold.
    @Field(key: "low_stock_alerted") var lowStockAlerted: Bool
    @OptionalField(key: "gtin") var gtin: String?

    init() {}
}

/// A variant's stock as orders count it: `ProductVariant` (the model) and `VariantLine` (the plain
/// row a product's page reads) have it.
protocol VariantStock {
    var stock: Int { get }
    var held: Int { get }
    var allocated: Int { get }
}

extension VariantStock {
    /// What can still be ordered; never below 0.
    var available: Int { max(0, stock - held - allocated) }
}

extension ProductVariant: VariantStock {}

/// The ordered photos of a product (the media rows are attached to the product as their owner).
final class ProductPhoto: Model, @unchecked Sendable {
    static let schema = "product_photos"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "product_id") var product: Product
    @Parent(key: "media_id") var media: Media
    @Field(key: "position") var position: Int

    init() {}
}
