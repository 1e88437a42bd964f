import Fluent
import Foundation

/// The privacy policy and terms (app stores ask for the first), with a starting text admins edit,
/// and the contact form's messages (issue 51).
struct CreateSitePages: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SitePage.schema)
            .field("slug", .string, .identifier(auto: false))
            .field("title", .string, .required)
            .field("markdown", .string, .required)
            .field("html", .string, .required)
            .field("updated_at", .datetime, .required)
            .field("updated_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .create()
        try await database.schema(FeedbackMessage.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("email", .string, .required)
            .field("subject", .string, .required)
            .field("message", .string, .required)
            .field("created_at", .datetime, .required)
            .create()
        for (slug, title, markdown) in SitePageDefaults.pages {
            let page = SitePage()
            page.id = slug.rawValue
            page.title = title
            page.markdown = markdown
            page.html = MarkdownRenderer.html(markdown)
            page.updatedAt = Date()
            try await page.create(on: database)
        }
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FeedbackMessage.schema).delete()
        try await database.schema(SitePage.schema).delete()
    }
}
