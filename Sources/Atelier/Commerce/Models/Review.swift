import Fluent
import Foundation

/// One person's review of one product. `verified` marks a reviewer with a completed order of it.
/// The product's `review_count` and `rating_sum` count the reviews that are not hidden, moved in
/// the same transaction as the review.
final class Review: Model, @unchecked Sendable {
    static let schema = "reviews"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "product_id") var productID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "stars") var stars: Int
    @Field(key: "text") var text: String
    @Field(key: "verified") var verified: Bool
    @OptionalField(key: "reply") var reply: String?
    @OptionalField(key: "replied_at") var repliedAt: Date?
    @OptionalField(key: "hidden_at") var hiddenAt: Date?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
