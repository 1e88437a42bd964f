import Fluent
import Foundation

/// A person likes an outfit they may see: one row per person and outfit. Counts are counted from
/// these rows, so they stay exact however many people like at once.
final class OutfitLike: Model, @unchecked Sendable {
    static let schema = "outfit_likes"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "outfit_id") var outfitID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
