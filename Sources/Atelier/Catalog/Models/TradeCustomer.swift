import Fluent
import Foundation

/// A business that buys from a store at trade prices (a bar ordering from a drinks wholesaler).
/// Approved ones see a sign-in-to-browse store, its trade prices, and may pay by invoice. Kept with the
/// catalogue because who may see a store (`StoreAccess`, `StoreVisibility`) depends on it; Commerce
/// runs the applications and the trade prices.
final class TradeCustomer: Model, @unchecked Sendable {
    static let schema = "trade_customers"

    enum Status: String, Codable, Sendable, CaseIterable { case pending, approved, rejected }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "store_id") var storeID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "company_name") var companyName: String
    @Field(key: "vat_number") var vatNumber: String
    @Field(key: "status") var status: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "decided_at") var decidedAt: Date?
    @OptionalField(key: "decided_by") var decidedBy: UUID?

    init() {}

    var isApproved: Bool { status == Status.approved.rawValue }
}
