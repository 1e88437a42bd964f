import Fluent
import Foundation

/// One side of a connection (social.md): two people who may invite each other to moments and see
/// each other in member lists, nothing more. Two rows a pair, as friendships are; every friendship
/// is also a connection, and a connection outlives an ended friendship.
final class UserConnection: Model, @unchecked Sendable {
    static let schema = "user_connections"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "other_id") var otherID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
