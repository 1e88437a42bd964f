import Fluent
import Foundation

/// A store's discount code. `used_count` counts the orders that carry it and is moved only by a
/// conditional update, so the total limit holds however many checkouts race for the last use.
final class DiscountCode: Model, @unchecked Sendable {
    static let schema = "discount_codes"

    enum Kind: String, Codable, Sendable, CaseIterable { case percentage, fixed }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "store_id") var storeID: UUID
    /// Upper-cased; unique per store.
    @Field(key: "code") var code: String
    @Field(key: "kind") var kind: String
    /// Percent (1–100) or an amount in minor units.
    @Field(key: "value") var value: Int
    @Field(key: "minimum_order_minor") var minimumOrderMinor: Int
    @OptionalField(key: "starts_at") var startsAt: Date?
    @OptionalField(key: "ends_at") var endsAt: Date?
    @OptionalField(key: "total_limit") var totalLimit: Int?
    @OptionalField(key: "per_customer_limit") var perCustomerLimit: Int?
    @Field(key: "used_count") var usedCount: Int
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// One use of a code by one customer's order (for the per-customer limit).
final class DiscountRedemption: Model, @unchecked Sendable {
    static let schema = "discount_redemptions"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "code_id") var codeID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "order_id") var orderID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
