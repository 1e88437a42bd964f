import Fluent
import Vapor

/// The web reader: issues, an issue with its articles, an article (Open Graph tags for sharing),
/// in the reader's language with a switch to the others. Open to everyone, like the magazine.
enum MagazineWebPages {
    struct LanguageLink: Encodable {
        var code: String
        var url: String
        var current: Bool
    }

    struct IssueCard: Encodable {
        var id: String
        var url: String
        var number: Int
        var label: String
        var cover: WebImage?
        var published: String
        var pdfURL: String?
    }

    struct ArticleCard: Encodable {
        var id: String
        var url: String
        var title: String
        var summary: String
        var authors: String
        var language: String
        var lead: WebImage?
        var html: String
        var completeArticle: Bool
        var webURL: String?
        /// When readers could first read it (its issue's publication), as a `<time>` shows it.
        var publishedAt: String
        var publishedOn: String
    }

    struct ListPage: WebPageContext {
        var page: PageContext
        var lang: String
        var languages: [LanguageLink]
        var issues: [IssueCard]
    }

    struct IssuePage: WebPageContext {
        var page: PageContext
        var lang: String
        var languages: [LanguageLink]
        var issue: IssueCard
        var articles: [ArticleCard]
    }

    struct ArticlePage: WebPageContext {
        var page: PageContext
        var lang: String
        var languages: [LanguageLink]
        var issue: IssueCard
        var article: ArticleCard
        var servedOther: Bool
    }

    static func register(_ web: any RoutesBuilder) {
        web.get("magazine", use: listPage)
        web.get("magazine", "issues", ":issueID", use: issuePage)
        web.get("magazine", "articles", ":articleID", use: articlePage)
    }

    static func listPage(_ req: Request) async throws -> View {
        let (catalog, lang) = reader(req)
        let issues = try await catalog.issues(lang: lang)
        let media = try await pictures(issues.compactMap(\.issue.coverMediaID), req)
        return try await req.renderPage("magazine/list", ListPage(
            page: PageContext(req, title: "Magazine"), lang: lang, languages: switcher(req, "/magazine", lang, catalog),
            issues: issues.map { card($0, lang: lang, media: media, req: req) }))
    }

    static func issuePage(_ req: Request) async throws -> View {
        let (catalog, lang) = reader(req)
        let view = try await catalog.issue(try req.pathID("issueID", "issue"), lang: lang)
        let media = try await pictures([view.issue.coverMediaID, view.pdfMediaID].compactMap { $0 } + view.articles.compactMap(\.article.leadMediaID), req)
        let issue = card(view, lang: lang, media: media, req: req)
        return try await req.renderPage("magazine/issue", IssuePage(
            page: PageContext(req, title: view.label), lang: lang, languages: switcher(req, "/magazine/issues/\(issue.id)", lang, catalog), issue: issue,
            articles: view.articles.map { card($0, lang: lang, media: media) }))
    }

    static func articlePage(_ req: Request) async throws -> View {
        let (catalog, lang) = reader(req)
        let view = try await catalog.article(try req.pathID("articleID", "article"), lang: lang)
        let issueView = catalog.issueView(view.issue, lang: lang, articles: [])
        let media = try await pictures([view.article.leadMediaID, view.issue.coverMediaID].compactMap { $0 }, req)
        let article = card(view, lang: lang, media: media)
        var page = PageContext(req, title: view.text.title)
        let base = req.atelier.config.publicBaseURL
        page.share = ShareMeta(
            type: "article", title: view.text.title, description: view.text.summary.isEmpty ? nil : view.text.summary,
            url: base + article.url,
            image: ShareMeta.image(view.article.leadMediaID.flatMap { media.byID[$0] }, alt: view.text.title, service: media.service, baseURL: base))
        return try await req.renderPage("magazine/article", ArticlePage(
            page: page, lang: lang, languages: switcher(req, "/magazine/articles/\(article.id)", lang, catalog),
            issue: card(issueView, lang: lang, media: media, req: req), article: article, servedOther: view.language != lang))
    }

    /// The newest issue readers can open, for the home page; nil before the first is published.
    static func latestIssue(_ req: Request) async throws -> IssueCard? {
        let (catalog, lang) = reader(req)
        guard let latest = try await catalog.issues(lang: lang).first else { return nil }
        return card(latest, lang: lang, media: try await pictures([latest.issue.coverMediaID].compactMap { $0 }, req), req: req)
    }

    // MARK: Shared

    private static func reader(_ req: Request) -> (MagazineCatalog, String) {
        let catalog = MagazineCatalog(db: req.db, core: req.core)
        return (catalog, catalog.languages.requested(query: req.query[String.self, at: "lang"], acceptLanguage: req.headers.first(name: .acceptLanguage)))
    }

    private static func switcher(_ req: Request, _ path: String, _ lang: String, _ catalog: MagazineCatalog) -> [LanguageLink] {
        catalog.languages.all.map { LanguageLink(code: $0, url: "\(path)?lang=\($0)", current: $0 == lang) }
    }

    private static func pictures(_ ids: [UUID], _ req: Request) async throws -> MagazineMedia {
        let service = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let rows = ids.isEmpty ? [] : try await Media.query(on: req.db).filter(\.$id ~~ Set(ids)).all()
        return MagazineMedia(byID: Dictionary(rows.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a }), service: service)
    }

    private static func card(_ view: MagazineCatalog.IssueView, lang: String, media: MagazineMedia, req: Request) -> IssueCard {
        let id = view.issue.id!.idString
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: lang == "ro" ? "ro_RO" : "en_GB")
        formatter.dateFormat = "d MMMM yyyy"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return IssueCard(
            id: id, url: "/magazine/issues/\(id)?lang=\(lang)", number: view.issue.number, label: view.label,
            cover: WebImage(view.issue.coverMediaID.flatMap { media.byID[$0] }, alt: view.label, service: media.service),
            published: view.issue.publishAt.map(formatter.string(from:)) ?? "",
            pdfURL: view.pdfMediaID.flatMap { media.byID[$0] }.map { MagazinePDFs(db: req.db, core: req.core, mediaLibrary: req.atelier.media).url($0) })
    }

    private static func card(_ view: MagazineCatalog.ArticleView, lang: String, media: MagazineMedia) -> ArticleCard {
        let id = view.article.id!.idString
        let published = view.issue.publishAt ?? view.issue.updatedAt
        return ArticleCard(
            id: id, url: "/magazine/articles/\(id)?lang=\(lang)", title: view.text.title, summary: view.text.summary,
            authors: view.authors.map(\.name).joined(separator: ", "), language: view.language,
            lead: WebImage(view.article.leadMediaID.flatMap { media.byID[$0] }, alt: view.text.title, service: media.service),
            html: view.text.html, completeArticle: view.article.completeArticle, webURL: view.article.webURL,
            publishedAt: InternetDateText.text(published) ?? "", publishedOn: publishedOn(published, lang: lang))
    }

    /// "7 December 2026" in the reader's language, in UTC as the issue's date is set.
    private static func publishedOn(_ date: Date, lang: String) -> String {
        date.formatted(Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: lang), timeZone: TimeZone(identifier: "UTC")!))
    }
}
