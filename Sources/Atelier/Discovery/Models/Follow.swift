import Fluent
import Foundation

/// A user following a store or a brand: their new products flow into the following feed.
final class Follow: Model, @unchecked Sendable {
    static let schema = "follows"

    enum Target: String, Codable, Sendable, CaseIterable { case store, brand }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "target_type") var targetType: String
    @Field(key: "target_id") var targetID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}

    /// Listed by hand, not found by reflection on every decode (the feeds read a shopper's follows
    /// on every request; issue 19). `ModelPropertiesTests` checks it against reflection.
    var properties: [any AnyProperty] { [$id, $userID, $targetType, $targetID, $createdAt] }
}

/// A product a user liked: it is in their lookbook.
final class ProductLike: Model, @unchecked Sendable {
    static let schema = "product_likes"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Parent(key: "product_id") var product: Product
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
