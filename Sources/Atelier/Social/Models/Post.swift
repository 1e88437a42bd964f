import Fluent
import Foundation

/// An outfit-of-the-day post: one private photo and a caption, at most one per author per day of
/// the author's time zone (`day`, unique with the author).
final class Post: Model, @unchecked Sendable {
    static let schema = "posts"
    /// `Media.ownerType` of a post's photo.
    static let mediaOwnerType = "post"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "media_id") var mediaID: UUID
    @Field(key: "caption") var caption: String
    /// YYYY-MM-DD in `timeZone`, the author's zone when they posted.
    @Field(key: "day") var day: String
    @Field(key: "time_zone") var timeZone: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "edited_at") var editedAt: Date?
    /// Set by moderation: then only the author still sees the post.
    @OptionalField(key: "hidden_at") var hiddenAt: Date?

    init() {}
}

/// One person's reaction to a post (one per person; changing it replaces the kind).
final class PostReaction: Model, @unchecked Sendable {
    static let schema = "post_reactions"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "post_id") var postID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A comment on a post.
final class PostComment: Model, @unchecked Sendable {
    static let schema = "post_comments"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "post_id") var postID: UUID
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "body") var body: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "hidden_at") var hiddenAt: Date?

    init() {}
}
