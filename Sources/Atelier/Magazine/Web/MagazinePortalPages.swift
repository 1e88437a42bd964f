import Fluent
import Vapor

/// The editor portal (`/portal/magazine`): issues with their labels per language, cover and
/// publishing; articles written side by side per language in Markdown with a live preview; authors.
/// Editors and admins only; to anyone else every page and action is a 404. The forms' actions
/// live in `MagazinePortalActions.swift`; the editing rules in `MagazineEditor`.
enum MagazinePortalPages {
    static let base = "/portal/magazine"

    static func register(_ web: any RoutesBuilder) {
        let portal = web.grouped("portal", "magazine").grouped(RequireMagazineEditor())
        portal.get(use: homePage)
        portal.post("issues", use: MagazinePortalActions.createIssue)
        portal.get("issues", ":issueID", use: issuePage)
        portal.on(.POST, "issues", ":issueID", body: .collect(maxSize: "40mb"), use: MagazinePortalActions.saveIssue)
        portal.on(.POST, "issues", ":issueID", "pdf", body: .collect(maxSize: "51mb"), use: MagazinePortalActions.uploadPDF)
        portal.post("issues", ":issueID", "articles", use: MagazinePortalActions.newArticle)
        portal.post("issues", ":issueID", "publish", use: MagazinePortalActions.publishIssue)
        portal.post("issues", ":issueID", "schedule", use: MagazinePortalActions.scheduleIssue)
        portal.post("issues", ":issueID", "unpublish", use: MagazinePortalActions.unpublishIssue)
        portal.get("articles", ":articleID", use: articlePage)
        portal.on(.POST, "articles", ":articleID", body: .collect(maxSize: "40mb"), use: MagazinePortalActions.saveArticle)
        portal.post("articles", ":articleID", "publish") { try await MagazinePortalActions.setArticlePublished($0, true) }
        portal.post("articles", ":articleID", "unpublish") { try await MagazinePortalActions.setArticlePublished($0, false) }
        portal.on(.POST, "preview", body: .collect(maxSize: "1mb"), use: MagazinePortalActions.preview)
        portal.get("authors", use: authorsPage)
        portal.on(.POST, "authors", body: .collect(maxSize: "40mb"), use: MagazinePortalActions.createAuthor)
        portal.on(.POST, "authors", ":authorID", body: .collect(maxSize: "40mb"), use: MagazinePortalActions.updateAuthor)
    }

    // MARK: Contexts

    struct LangField: Encodable {
        var code: String
        var value: String
        var isDefault: Bool
    }

    struct IssueRow: Encodable {
        var id: String
        var url: String
        var number: Int
        var label: String
        var status: String
        var publishAt: String
        var publicURL: String?
    }

    struct AuthorRow: Encodable {
        var id: String
        var name: String
        var bios: [LangField]
        var picture: WebImage?
    }

    struct HomePage: WebPageContext {
        var page: PageContext
        var issues: [IssueRow]
        var authors: [AuthorRow]
        var labels: [LangField]
        var nextNumber: Int
    }

    struct ArticleRow: Encodable {
        var id: String
        var url: String
        var title: String
        var status: String
        var position: Int
        var languages: String
    }

    struct IssuePage: WebPageContext {
        var page: PageContext
        var issue: IssueRow
        var labels: [LangField]
        var cover: WebImage?
        var articles: [ArticleRow]
        var scheduleValue: String
        var zone: String
        var isDraft: Bool
        var pdfs: [PDFRow]
    }

    struct PDFRow: Encodable {
        var code: String
        var url: String?
        var size: String?
    }

    struct TextColumn: Encodable {
        var code: String
        var isDefault: Bool
        var slug: String
        var title: String
        var summary: String
        var markdown: String
        var html: String
    }

    struct AuthorChoice: Encodable {
        var id: String
        var name: String
        var checked: Bool
    }

    struct ArticleForm: Encodable {
        var id: String
        var title: String
        var status: String
        var isPublished: Bool
        var position: Int
        var completeArticle: Bool
        var webURL: String
        var publicURL: String?
    }

    struct ArticlePage: WebPageContext {
        var page: PageContext
        var issue: IssueRow
        var article: ArticleForm
        var texts: [TextColumn]
        var authors: [AuthorChoice]
        var lead: WebImage?
        var languageCount: Int
    }

    struct AuthorsPage: WebPageContext {
        var page: PageContext
        var authors: [AuthorRow]
        var bios: [LangField]
    }

    // MARK: Pages

    static func homePage(_ req: Request) async throws -> View {
        let editor = editor(req)
        let issues = try await editor.allIssues()
        let authors = try await editor.allAuthors()
        let languages = languages(req)
        return try await req.renderPage("magazine/portal-home", HomePage(
            page: PageContext(req, title: "Magazine portal"),
            issues: issues.map { row($0, req: req) },
            authors: try await authorRows(authors, req: req),
            labels: languages.all.map { LangField(code: $0, value: "", isDefault: $0 == languages.default) },
            nextNumber: (issues.map(\.number).max() ?? 0) + 1))
    }

    static func issuePage(_ req: Request) async throws -> View {
        let editor = editor(req)
        let issue = try await findIssue(req)
        let articles = try await editor.articles(of: issue)
        let ids = articles.map { $0.id! }
        let texts = ids.isEmpty ? [] : try await MagazineArticleText.query(on: req.db).filter(\.$articleID ~~ ids).all()
        let byArticle = Dictionary(grouping: texts, by: \.articleID)
        let languages = languages(req)
        let media = try await pictures([issue.coverMediaID].compactMap { $0 } + Array(issue.pdfs.values), req)
        let zone = LocalDay.zone(try req.requireWebUser().timeZone)
        let pdfs = MagazinePDFs(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let row = row(issue, req: req)
        return try await req.renderPage("magazine/portal-issue", IssuePage(
            page: PageContext(req, title: "\(row.label) · Magazine portal"),
            issue: row,
            labels: languages.all.map { LangField(code: $0, value: issue.labels[$0] ?? "", isDefault: $0 == languages.default) },
            cover: WebImage(issue.coverMediaID.flatMap { media.byID[$0] }, alt: row.label, service: media.service, preferredWidth: 320),
            articles: articles.map { article in
                let mine = byArticle[article.id!] ?? []
                let title = languages.pick(languages.default, available: mine.map(\.lang)).flatMap { lang in mine.first { $0.lang == lang }?.title }
                return ArticleRow(
                    id: article.id!.idString, url: "\(base)/articles/\(article.id!.idString)",
                    title: title ?? "Untitled article", status: article.status, position: article.position,
                    languages: mine.map(\.lang).sorted().joined(separator: ", "))
            },
            scheduleValue: DateTimeLocalField.localInput(issue.publishAt.flatMap { $0 > now(req) ? $0 : nil } ?? now(req).addingTimeInterval(86_400), zone: zone),
            zone: zone.identifier, isDraft: issue.issueStatus == .draft,
            pdfs: languages.all.map { code in
                let file = issue.pdfs[code].flatMap { media.byID[$0] }
                return PDFRow(code: code, url: file.map(pdfs.url), size: file.map { String(format: "%.1f MB", Double($0.byteSize) / 1_048_576) })
            }))
    }

    static func articlePage(_ req: Request) async throws -> View {
        let editor = editor(req)
        let article = try await findArticle(req)
        guard let issue = try await MagazineIssue.find(article.issueID, on: req.db) else { throw Problem.notFound("issue") }
        let texts = try await editor.texts(of: article)
        let chosen = try await editor.authorIDs(of: article)
        let authors = try await editor.allAuthors()
        let languages = languages(req)
        let media = try await pictures([article.leadMediaID].compactMap { $0 }, req)
        let id = article.id!.idString
        let title = languages.pick(languages.default, available: Array(texts.keys)).flatMap { texts[$0]?.title } ?? "Untitled article"
        let visible = article.isPublished && issue.isVisible(at: now(req))
        // Chosen authors first, in byline order, then the others by name.
        let ordered = chosen.compactMap { id in authors.first { $0.id == id } } + authors.filter { !chosen.contains($0.id!) }
        return try await req.renderPage("magazine/portal-article", ArticlePage(
            page: PageContext(req, title: "\(title) · Magazine portal"),
            issue: row(issue, req: req),
            article: ArticleForm(
                id: id, title: title, status: article.status, isPublished: article.isPublished, position: article.position,
                completeArticle: article.completeArticle, webURL: article.webURL ?? "",
                publicURL: visible ? "/magazine/articles/\(id)" : nil),
            texts: languages.all.map { code in
                let text = texts[code]
                return TextColumn(
                    code: code, isDefault: code == languages.default, slug: text?.slug ?? "", title: text?.title ?? "",
                    summary: text?.summary ?? "", markdown: text?.markdown ?? "", html: text?.html ?? "")
            },
            authors: ordered.map { AuthorChoice(id: $0.id!.idString, name: $0.name, checked: chosen.contains($0.id!)) },
            lead: WebImage(article.leadMediaID.flatMap { media.byID[$0] }, alt: title, service: media.service, preferredWidth: 320),
            languageCount: languages.all.count))
    }

    static func authorsPage(_ req: Request) async throws -> View {
        let authors = try await editor(req).allAuthors()
        let languages = languages(req)
        return try await req.renderPage("magazine/portal-authors", AuthorsPage(
            page: PageContext(req, title: "Authors · Magazine portal"),
            authors: try await authorRows(authors, req: req),
            bios: languages.all.map { LangField(code: $0, value: "", isDefault: $0 == languages.default) }))
    }

    // MARK: Shared

    static func editor(_ req: Request) -> MagazineEditor { MagazineEditor(db: req.db, core: req.core, mediaLibrary: req.atelier.media) }

    static func languages(_ req: Request) -> MagazineLanguages { MagazineLanguages(req.atelier.config.magazineLanguages) }

    static func now(_ req: Request) -> Date { req.atelier.clock.now() }

    static func findIssue(_ req: Request) async throws -> MagazineIssue {
        guard let id = req.parameters.get("issueID").flatMap(UUID.init(uuidString:)),
            let issue = try await MagazineIssue.find(id, on: req.db) else { throw Problem.notFound("issue") }
        return issue
    }

    static func findArticle(_ req: Request) async throws -> MagazineArticle {
        guard let id = req.parameters.get("articleID").flatMap(UUID.init(uuidString:)),
            let article = try await MagazineArticle.find(id, on: req.db) else { throw Problem.notFound("article") }
        return article
    }

    static func findAuthor(_ req: Request) async throws -> MagazineAuthor {
        guard let id = req.parameters.get("authorID").flatMap(UUID.init(uuidString:)),
            let author = try await MagazineAuthor.find(id, on: req.db) else { throw Problem.notFound("author") }
        return author
    }

    static func row(_ issue: MagazineIssue, req: Request) -> IssueRow {
        let id = issue.id!.idString
        let languages = languages(req)
        let zone = LocalDay.zone(req.webSessionUser?.timeZone ?? "UTC")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "d MMM yyyy, HH:mm"
        return IssueRow(
            id: id, url: "\(base)/issues/\(id)", number: issue.number,
            label: issue.labels[languages.default] ?? issue.labels.values.sorted().first ?? "Issue \(issue.number)",
            status: issue.status, publishAt: issue.publishAt.map { formatter.string(from: $0) + " (\(zone.identifier))" } ?? "",
            publicURL: issue.isVisible(at: now(req)) ? "/magazine/issues/\(id)" : nil)
    }

    static func authorRows(_ authors: [MagazineAuthor], req: Request) async throws -> [AuthorRow] {
        let languages = languages(req)
        let media = try await pictures(authors.compactMap(\.pictureMediaID), req)
        return authors.map { author in
            AuthorRow(
                id: author.id!.idString, name: author.name,
                bios: languages.all.map { LangField(code: $0, value: author.bios[$0] ?? "", isDefault: $0 == languages.default) },
                picture: WebImage(author.pictureMediaID.flatMap { media.byID[$0] }, alt: author.name, service: media.service, preferredWidth: 160))
        }
    }

    static func pictures(_ ids: [UUID], _ req: Request) async throws -> MagazineMedia {
        let service = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let rows = ids.isEmpty ? [] : try await Media.query(on: req.db).filter(\.$id ~~ Set(ids)).all()
        return MagazineMedia(byID: Dictionary(rows.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a }), service: service)
    }
}

/// Editors and admins only: to anyone else (signed out included) the portal does not exist.
struct RequireMagazineEditor: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let user = request.webSessionUser, user.isEditor || user.isAdmin else { throw Problem.notFound("page") }
        return try await next.respond(to: request)
    }
}
