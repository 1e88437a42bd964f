import Fluent
import Foundation

/// One store's part of a checkout. Prices are snapshotted; the stock it takes sits in the
/// variants' `held` (until `hold_until`) or `allocated` column, as `stock_state` says, until it is
/// handed over (taken off `stock`) or released.
final class Order: Model, @unchecked Sendable {
    static let schema = "orders"

    enum Status: String, Codable, Sendable, CaseIterable {
        case pendingPayment, placed, confirmed, readyForPickup, outForDelivery, completed, cancelled, expired, refunded
    }
    enum Fulfilment: String, Codable, Sendable, CaseIterable { case reserve, pickup, delivery }
    enum Payment: String, Codable, Sendable, CaseIterable { case payAtStore, card, invoice }
    /// Where the order's quantities are counted on its variants.
    enum StockState: String, Codable, Sendable { case held, allocated, released, handedOver }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "store_id") var storeID: UUID
    /// Nil once the customer deleted their account.
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "checkout_id") var checkoutID: UUID
    @Field(key: "number") var number: Int
    @Field(key: "status") var status: String
    @Field(key: "fulfilment") var fulfilment: String
    @Field(key: "payment_method") var paymentMethod: String
    @Field(key: "stock_state") var stockState: String
    @Field(key: "currency") var currency: String
    @Field(key: "subtotal_minor") var subtotalMinor: Int
    @Field(key: "discount_minor") var discountMinor: Int
    @Field(key: "delivery_fee_minor") var deliveryFeeMinor: Int
    @Field(key: "total_minor") var totalMinor: Int
    @OptionalField(key: "discount_code") var discountCode: String?
    @OptionalField(key: "hold_until") var holdUntil: Date?
    @OptionalField(key: "delivery_address") var deliveryAddress: String?
    @OptionalField(key: "cancel_reason") var cancelReason: String?
    /// Whether the prices (and so `subtotal` and `total`) included VAT; when not, `total` adds `vat_minor`.
    @Field(key: "prices_include_vat") var pricesIncludeVAT: Bool
    @Field(key: "vat_minor") var vatMinor: Int
    @Field(key: "delivery_vat_rate_bp") var deliveryVATRateBasisPoints: Int
    /// It holds age-restricted goods and the store requires an ID check at handover.
    @Field(key: "needs_id_check") var needsIDCheck: Bool
    @Field(key: "id_checked") var idChecked: Bool
    /// Card orders: the provider's payment intent and the secret the app confirms it with.
    @OptionalField(key: "payment_intent_id") var paymentIntentID: String?
    @OptionalField(key: "payment_client_secret") var paymentClientSecret: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var state: Status { Status(rawValue: status) ?? .placed }
}

/// A snapshot of one ordered variant.
final class OrderLine: Model, @unchecked Sendable {
    static let schema = "order_lines"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "order_id") var orderID: UUID
    @OptionalField(key: "product_id") var productID: UUID?
    @OptionalField(key: "variant_id") var variantID: UUID?
    @Field(key: "title") var title: String
    @Field(key: "size") var size: String
    @Field(key: "unit_price_minor") var unitPriceMinor: Int
    @Field(key: "quantity") var quantity: Int
    @Field(key: "position") var position: Int
    /// The VAT rate it was sold at, in basis points (2500 = 25 %).
    @Field(key: "vat_rate_bp") var vatRateBasisPoints: Int

    init() {}
}

/// Every state change of an order: who, when, from and to what, and why.
final class OrderEvent: Model, @unchecked Sendable {
    static let schema = "order_events"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "order_id") var orderID: UUID
    /// 0, 1, 2 … in the order the changes happened (several can share a clock tick).
    @Field(key: "position") var position: Int
    @OptionalField(key: "from_status") var fromStatus: String?
    @Field(key: "to_status") var toStatus: String
    @OptionalField(key: "actor_id") var actorID: UUID?
    @OptionalField(key: "reason") var reason: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
