import Fluent
import Foundation

/// An article of an issue. Its text lives per language in `MagazineArticleText`; readers see it
/// while it is published and its issue is visible.
final class MagazineArticle: Model, @unchecked Sendable {
    static let schema = "magazine_articles"

    enum Status: String, Codable, Sendable { case draft, published }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "issue_id") var issueID: UUID
    @Field(key: "position") var position: Int
    @OptionalField(key: "lead_media_id") var leadMediaID: UUID?
    /// When false the apps open `webURL` instead of showing the body.
    @Field(key: "complete_article") var completeArticle: Bool
    @OptionalField(key: "web_url") var webURL: String?
    @Field(key: "status") var status: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var isPublished: Bool { status == Status.published.rawValue }
}

/// An article in one language: slug, title, summary, the Markdown body and its rendered, safe HTML.
final class MagazineArticleText: Model, @unchecked Sendable {
    static let schema = "magazine_article_texts"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "article_id") var articleID: UUID
    @Field(key: "lang") var lang: String
    @Field(key: "slug") var slug: String
    @Field(key: "title") var title: String
    @Field(key: "summary") var summary: String
    @Field(key: "markdown") var markdown: String
    @Field(key: "html") var html: String
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// Who wrote an article, in byline order.
final class MagazineArticleAuthor: Model, @unchecked Sendable {
    static let schema = "magazine_article_authors"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "article_id") var articleID: UUID
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "position") var position: Int

    init() {}
}

/// A writer: name, a bio per language, a picture.
final class MagazineAuthor: Model, @unchecked Sendable {
    static let schema = "magazine_authors"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "name") var name: String
    /// JSON object: language → bio.
    @Field(key: "bios") var biosJSON: String
    @OptionalField(key: "picture_media_id") var pictureMediaID: UUID?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var bios: [String: String] {
        get { JSONText.decode(biosJSON) ?? [:] }
        set { biosJSON = JSONText.encode(newValue) }
    }
}

/// "Something about this issue, article or author may look different to readers from
/// `visibleAt` on." The changes feed reads these rows and sends each entity's state at read time.
final class MagazineChange: Model, @unchecked Sendable {
    static let schema = "magazine_changes"

    enum Entity: String, Codable, Sendable { case issue, article, author }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "entity") var entity: String
    @Field(key: "entity_id") var entityID: UUID
    @Field(key: "visible_at") var visibleAt: Date

    init() {}
}
