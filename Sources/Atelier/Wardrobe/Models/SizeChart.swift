import Fluent
import Foundation

/// A product's size chart: body measurements (cm) each size is made for. One per product, set by
/// the store; the product page then says which size fits the shopper best and why.
final class SizeChart: Model, @unchecked Sendable {
    static let schema = "product_size_charts"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "product_id") var productID: UUID
    /// `[SizeChart.Row]` as JSON.
    @Field(key: "rows") var rowsJSON: String
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    struct Range: Codable, Sendable, Equatable {
        var min: Double
        var max: Double
    }

    struct Row: Codable, Sendable, Equatable {
        var size: String
        var chest: Range?
        var waist: Range?
        var hips: Range?
        var inseam: Range?
        /// EU shoe sizes the size covers (shoes).
        var shoe: Range?
    }

    var rows: [Row] { (try? JSONDecoder().decode([Row].self, from: Data(rowsJSON.utf8))) ?? [] }
}
