import Fluent
import Foundation

/// The privacy policy and terms: read by anyone, changed by admins.
struct SitePageService {
    static let maxTitleLength = 120
    static let maxMarkdownLength = 50_000

    let db: any Database
    let core: CoreServices

    func page(_ slug: String) async throws -> SitePage {
        guard SitePage.Slug(rawValue: slug) != nil, let page = try await SitePage.find(slug, on: db) else { throw Problem.notFound("page") }
        return page
    }

    func update(_ slug: String, title rawTitle: String, markdown rawMarkdown: String, by admin: User) async throws -> SitePage {
        let page = try await page(slug)
        var errors = FieldErrors()
        let title = rawTitle.trimmingCharacters(in: .whitespacesAndNewlines)
        let markdown = rawMarkdown.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty || title.count > Self.maxTitleLength { errors.add("title", "must be 1 to \(Self.maxTitleLength) characters") }
        if markdown.isEmpty || markdown.count > Self.maxMarkdownLength { errors.add("body", "must be 1 to \(Self.maxMarkdownLength) characters") }
        try PlainText.requireNoNUL(title, field: "title")
        try PlainText.requireNoNUL(markdown, field: "body")
        try errors.throwIfAny()
        page.title = title
        page.markdown = markdown
        page.html = MarkdownRenderer.html(markdown)
        page.updatedAt = core.clock.now()
        page.updatedBy = try admin.requireID()
        try await core.writeTransaction(on: db) { tx in try await page.save(on: tx) }
        return page
    }
}
