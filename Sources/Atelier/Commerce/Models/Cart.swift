import Fluent
import Foundation

/// A shopper's cart: one per account, or one per signed-out browser session (`session_key`),
/// merged into the account at sign-in.
final class Cart: Model, @unchecked Sendable {
    static let schema = "carts"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @OptionalField(key: "user_id") var userID: UUID?
    @OptionalField(key: "session_key") var sessionKey: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// One variant in a cart. `seen_price_minor` is the unit price the shopper last saw, so a price
/// change before checkout is flagged rather than charged silently.
final class CartLine: Model, @unchecked Sendable {
    static let schema = "cart_lines"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "cart_id") var cartID: UUID
    @Field(key: "variant_id") var variantID: UUID
    @Field(key: "quantity") var quantity: Int
    @Field(key: "seen_price_minor") var seenPriceMinor: Int
    @Field(key: "added_at") var addedAt: Date

    init() {}
}
