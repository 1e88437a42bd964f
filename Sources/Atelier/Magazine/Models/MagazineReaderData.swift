import Fluent
import Foundation

/// A reader keeps an article for later.
final class MagazineBookmark: Model, @unchecked Sendable {
    static let schema = "magazine_bookmarks"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "article_id") var articleID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A reader's 1–5 stars for an article (one per reader; rating again replaces it).
final class MagazineRating: Model, @unchecked Sendable {
    static let schema = "magazine_ratings"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "article_id") var articleID: UUID
    @Field(key: "stars") var stars: Int
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A reader's comment on an article.
final class MagazineComment: Model, @unchecked Sendable {
    static let schema = "magazine_comments"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "article_id") var articleID: UUID
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "body") var body: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "hidden_at") var hiddenAt: Date?

    init() {}
}

/// A reader who wants a notification when an issue comes out.
final class MagazineSubscription: Model, @unchecked Sendable {
    static let schema = "magazine_subscriptions"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

struct CreateMagazineReaders: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MagazineBookmark.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("article_id", .uuid, .required, .references(MagazineArticle.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "article_id")
            .create()
        try await database.schema(MagazineRating.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("article_id", .uuid, .required, .references(MagazineArticle.schema, "id", onDelete: .cascade))
            .field("stars", .int, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "article_id")
            .create()
        try await database.schema(MagazineComment.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("article_id", .uuid, .required, .references(MagazineArticle.schema, "id", onDelete: .cascade))
            .field("author_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("body", .string, .required)
            .field("created_at", .datetime, .required)
            .field("hidden_at", .datetime)
            .create()
        try await database.schema(MagazineSubscription.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        for schema in [MagazineSubscription.schema, MagazineComment.schema, MagazineRating.schema, MagazineBookmark.schema] {
            try await database.schema(schema).delete()
        }
    }
}
