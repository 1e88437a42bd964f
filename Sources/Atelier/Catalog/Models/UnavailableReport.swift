import Fluent
import Foundation

/// A shopper's "this is not in the store any more"; staff resolve it.
final class UnavailableReport: Model, @unchecked Sendable {
    static let schema = "unavailable_reports"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "product_id") var product: Product
    @Field(key: "store_id") var storeID: UUID
    @Field(key: "reporter_id") var reporterID: UUID
    @Field(key: "note") var note: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "resolved_at") var resolvedAt: Date?

    init() {}
}
