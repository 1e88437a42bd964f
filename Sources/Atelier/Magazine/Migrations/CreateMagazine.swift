import Fluent
import SQLKit

/// Issues, articles with their texts and authors, authors, and the change log of the sync feed.
struct CreateMagazine: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(MagazineIssue.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("number", .int, .required)
            .field("labels", .string, .required)
            .field("cover_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("pdfs", .string, .required)
            .field("status", .string, .required)
            .field("publish_at", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "number")
            .create()
        try await database.schema(MagazineAuthor.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("name", .string, .required)
            .field("bios", .string, .required)
            .field("picture_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(MagazineArticle.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("issue_id", .uuid, .required, .references(MagazineIssue.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("lead_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("complete_article", .bool, .required)
            .field("web_url", .string)
            .field("status", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(MagazineArticleText.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("article_id", .uuid, .required, .references(MagazineArticle.schema, "id", onDelete: .cascade))
            .field("lang", .string, .required)
            .field("slug", .string, .required)
            .field("title", .string, .required)
            .field("summary", .string, .required)
            .field("markdown", .string, .required)
            .field("html", .string, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "article_id", "lang")
            .unique(on: "lang", "slug")
            .create()
        try await database.schema(MagazineArticleAuthor.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("article_id", .uuid, .required, .references(MagazineArticle.schema, "id", onDelete: .cascade))
            .field("author_id", .uuid, .required, .references(MagazineAuthor.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .unique(on: "article_id", "author_id")
            .create()
        try await database.schema(MagazineChange.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("entity", .string, .required)
            .field("entity_id", .uuid, .required)
            .field("visible_at", .datetime, .required)
            .create()
        let sql = database.sql
        try await sql.create(index: "magazine_articles_issue_idx").on(MagazineArticle.schema).column("issue_id").column("position").run()
        try await sql.create(index: "magazine_article_authors_author_idx").on(MagazineArticleAuthor.schema).column("author_id").run()
        try await sql.create(index: "magazine_changes_visible_idx").on(MagazineChange.schema).column("visible_at").run()
    }

    func revert(on database: any Database) async throws {
        for schema in [MagazineChange.schema, MagazineArticleAuthor.schema, MagazineArticleText.schema, MagazineArticle.schema,
                       MagazineAuthor.schema, MagazineIssue.schema] {
            try await database.schema(schema).delete()
        }
    }
}
