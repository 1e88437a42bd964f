import Fluent
import Foundation

/// What readers see, in the language they ask for: visible issues, an issue with its published
/// articles, an article, an author. A missing translation falls back to the default language
/// and every answer names the language it is in.
struct MagazineCatalog {
    struct ArticleView: Sendable {
        var article: MagazineArticle
        var issue: MagazineIssue
        var text: MagazineArticleText
        var authors: [MagazineAuthor]
        var language: String { text.lang }
    }

    struct IssueView: Sendable {
        var issue: MagazineIssue
        var label: String
        var language: String
        var pdfMediaID: UUID?
        var articles: [ArticleView]
    }

    struct AuthorView: Sendable {
        var author: MagazineAuthor
        var bio: String
        var language: String
    }

    let db: any Database
    let core: CoreServices

    var languages: MagazineLanguages { MagazineLanguages(core.config.magazineLanguages) }
    private var now: Date { core.clock.now() }

    /// Visible issues, highest number first (a monthly magazine has few; at most 100).
    func issues(lang: String) async throws -> [IssueView] {
        let rows = try await MagazineIssue.query(on: db).filter(\.$status != MagazineIssue.Status.draft.rawValue)
            .filter(\.$publishAt <= now).sort(\.$number, .descending).limit(100).all()
        return rows.map { issueView($0, lang: lang, articles: []) }
    }

    func issue(_ id: UUID, lang: String) async throws -> IssueView {
        guard let issue = try await MagazineIssue.find(id, on: db), issue.isVisible(at: now) else { throw Problem.notFound("issue") }
        let articles = try await MagazineArticle.query(on: db).filter(\.$issueID == id)
            .filter(\.$status == MagazineArticle.Status.published.rawValue).sort(\.$position).all()
        return issueView(issue, lang: lang, articles: try await articleViews(articles, issues: [id: issue], lang: lang))
    }

    func article(_ id: UUID, lang: String) async throws -> ArticleView {
        guard let article = try await MagazineArticle.find(id, on: db), article.isPublished,
            let issue = try await MagazineIssue.find(article.issueID, on: db), issue.isVisible(at: now),
            let view = try await articleViews([article], issues: [issue.id!: issue], lang: lang).first
        else { throw Problem.notFound("article") }
        return view
    }

    func author(_ id: UUID, lang: String) async throws -> AuthorView {
        guard let author = try await MagazineAuthor.find(id, on: db) else { throw Problem.notFound("author") }
        return authorView(author, lang: lang)
    }

    // MARK: Building views (also used by the changes feed)

    func issueView(_ issue: MagazineIssue, lang: String, articles: [ArticleView]) -> IssueView {
        let language = languages.pick(lang, available: issue.labels.keys) ?? languages.default
        let pdfLanguage = languages.pick(lang, available: issue.pdfs.keys)
        return IssueView(
            issue: issue, label: issue.labels[language] ?? "Issue \(issue.number)", language: language,
            pdfMediaID: pdfLanguage.flatMap { issue.pdfs[$0] }, articles: articles)
    }

    func authorView(_ author: MagazineAuthor, lang: String) -> AuthorView {
        let language = languages.pick(lang, available: author.bios.keys) ?? languages.default
        return AuthorView(author: author, bio: author.bios[language] ?? "", language: language)
    }

    /// The articles in `lang` (or their fallback), in the order given; those without any text are left out.
    func articleViews(_ articles: [MagazineArticle], issues: [UUID: MagazineIssue], lang: String) async throws -> [ArticleView] {
        guard !articles.isEmpty else { return [] }
        let ids = articles.map { $0.id! }
        let texts = Dictionary(grouping: try await MagazineArticleText.query(on: db).filter(\.$articleID ~~ ids).all(), by: \.articleID)
        let links = try await MagazineArticleAuthor.query(on: db).filter(\.$articleID ~~ ids).sort(\.$position).all()
        let authors = Dictionary(try await MagazineAuthor.query(on: db).filter(\.$id ~~ Set(links.map(\.authorID))).all().map { ($0.id!, $0) },
                                 uniquingKeysWith: { a, _ in a })
        let byArticle = Dictionary(grouping: links, by: \.articleID)
        return articles.compactMap { article in
            let available = Dictionary((texts[article.id!] ?? []).map { ($0.lang, $0) }, uniquingKeysWith: { a, _ in a })
            guard let issue = issues[article.issueID], let language = languages.pick(lang, available: available.keys),
                let text = available[language] else { return nil }
            return ArticleView(article: article, issue: issue, text: text,
                               authors: (byArticle[article.id!] ?? []).compactMap { authors[$0.authorID] })
        }
    }
}
