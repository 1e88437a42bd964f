import Fluent
import Foundation

/// A product the user means to go and see in its store (the wishlist, or shopping list).
final class WishlistItem: Model, @unchecked Sendable {
    static let schema = "wishlist_items"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Parent(key: "product_id") var product: Product
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
