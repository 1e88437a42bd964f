import Fluent
import Foundation

/// One side of a friendship: every friendship is two rows, (a, b) and (b, a), so "my friends" and
/// "friends in common" are plain lookups on `user_id`.
final class Friendship: Model, @unchecked Sendable {
    static let schema = "friendships"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "friend_id") var friendID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A friend request waiting for an answer.
final class FriendRequest: Model, @unchecked Sendable {
    static let schema = "friend_requests"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "from_id") var fromID: UUID
    @Field(key: "to_id") var toID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// `blocker` blocked `blocked`: each stops seeing the other (profile, posts, comments, search).
final class UserBlock: Model, @unchecked Sendable {
    static let schema = "user_blocks"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "blocker_id") var blockerID: UUID
    @Field(key: "blocked_id") var blockedID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
