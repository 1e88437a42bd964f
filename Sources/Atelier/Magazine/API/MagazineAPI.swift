import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/magazine…`: the reading API and the delta feed for offline copies. Public, like the magazine.
extension APIHandler {
    func listMagazineIssues(_ input: Operations.ListMagazineIssues.Input) async throws -> Operations.ListMagazineIssues.Output {
        let (req, _, lang) = try magazine(input.query.lang)
        let issues = try await req.reading { db in try await MagazineCatalog(db: db, core: services.core).issues(lang: lang) }
        let media = try await magazineMedia(issues.compactMap(\.issue.coverMediaID) + issues.compactMap(\.pdfMediaID), req)
        return .ok(.init(body: .json(.init(items: issues.map { .init($0, media: media) }))))
    }

    func getMagazineIssue(_ input: Operations.GetMagazineIssue.Input) async throws -> Operations.GetMagazineIssue.Output {
        let (req, catalog, lang) = try magazine(input.query.lang)
        let issue = try await catalog.issue(try PathID.parse(input.path.issueId, "issue"), lang: lang)
        let media = try await magazineMedia([issue.issue.coverMediaID, issue.pdfMediaID].compactMap { $0 } + issue.articles.compactMap(\.article.leadMediaID), req)
        return .ok(.init(body: .json(.init(issue, media: media, withArticles: true))))
    }

    func getMagazineArticle(_ input: Operations.GetMagazineArticle.Input) async throws -> Operations.GetMagazineArticle.Output {
        let (req, catalog, lang) = try magazine(input.query.lang)
        let article = try await catalog.article(try PathID.parse(input.path.articleId, "article"), lang: lang)
        let media = try await magazineMedia([article.article.leadMediaID].compactMap { $0 }, req)
        var body = Components.Schemas.MagazineArticle(article, media: media)
        // One article: with its average rating (and the caller's stars and bookmark when signed in).
        let readers = MagazineReaders(db: req.db, core: services.core)
        let callerID = try await req.optionalCaller()?.user.id
        body.rating = .init(try await readers.rating(of: article.article.requireID(), viewer: callerID))
        if let callerID {
            body.viewer = .init(bookmarked: try await readers.hasBookmarked(article.article.requireID(), userID: callerID))
        }
        return .ok(.init(body: .json(body)))
    }

    func getMagazineAuthor(_ input: Operations.GetMagazineAuthor.Input) async throws -> Operations.GetMagazineAuthor.Output {
        let (req, catalog, lang) = try magazine(input.query.lang)
        let author = try await catalog.author(try PathID.parse(input.path.authorId, "author"), lang: lang)
        let media = try await magazineMedia([author.author.pictureMediaID].compactMap { $0 }, req)
        return .ok(.init(body: .json(.init(author, media: media))))
    }

    func getMagazineChanges(_ input: Operations.GetMagazineChanges.Input) async throws -> Operations.GetMagazineChanges.Output {
        let (req, _, lang) = try magazine(input.query.lang)
        let changes = try await MagazineChanges(db: req.db, core: services.core).changes(since: input.query.since, lang: lang)
        let mediaIDs = changes.issues.compactMap(\.issue.coverMediaID) + changes.issues.compactMap(\.pdfMediaID) + changes.articles.compactMap(\.article.leadMediaID)
            + changes.authors.compactMap(\.author.pictureMediaID)
        let media = try await magazineMedia(mediaIDs, req)
        return .ok(.init(body: .json(.init(
            issues: changes.issues.map { .init($0, media: media) }, articles: changes.articles.map { .init($0, media: media) },
            authors: changes.authors.map { .init($0, media: media) },
            deleted: changes.deletions.map { .init(_type: .init(rawValue: $0.entity.rawValue)!, id: $0.id.idString) },
            nextCursor: changes.nextCursor))))
    }

    /// The request, the catalog and the language to serve: `?lang=`, else `Accept-Language`, else the default.
    private func magazine(_ lang: String?) throws -> (Request, MagazineCatalog, String) {
        let req = try request()
        let catalog = MagazineCatalog(db: req.db, core: services.core)
        return (req, catalog, catalog.languages.requested(query: lang, acceptLanguage: req.headers.first(name: .acceptLanguage)))
    }

    func magazineMedia(_ ids: [UUID], _ req: Request) async throws -> MagazineMedia {
        let service = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        guard !ids.isEmpty else { return MagazineMedia(byID: [:], service: service) }
        let rows = try await Media.query(on: req.db).filter(\.$id ~~ Set(ids)).all()
        return MagazineMedia(byID: Dictionary(rows.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a }), service: service)
    }
}

/// The pictures a magazine answer refers to, loaded at once.
struct MagazineMedia {
    var byID: [UUID: Media]
    var service: MediaService

    func image(_ id: UUID?) -> Components.Schemas.Image? {
        id.flatMap { byID[$0] }.map { Components.Schemas.Image($0, service: service) }
    }
}

extension Components.Schemas.MagazineArticle {
    init(_ view: MagazineCatalog.ArticleView, media: MagazineMedia) {
        self.init(
            id: view.article.id!.idString, issueId: view.article.issueID.idString,
            position: view.article.position, slug: view.text.slug, title: view.text.title, summary: view.text.summary,
            html: view.text.html, language: view.language, completeArticle: view.article.completeArticle, webURL: view.article.webURL,
            leadImage: media.image(view.article.leadMediaID),
            authors: view.authors.map { .init(id: $0.id!.idString, name: $0.name) },
            publishedAt: view.issue.publishAt ?? view.issue.updatedAt, updatedAt: max(view.article.updatedAt, view.text.updatedAt))
    }
}

extension Components.Schemas.MagazineIssue {
    init(_ view: MagazineCatalog.IssueView, media: MagazineMedia, withArticles: Bool = false) {
        self.init(
            id: view.issue.id!.idString, number: view.issue.number, label: view.label, language: view.language,
            cover: media.image(view.issue.coverMediaID),
            pdfUrl: view.pdfMediaID.flatMap { media.byID[$0] }.map { MagazinePDFs(db: media.service.db, core: media.service.core, mediaLibrary: media.service.mediaLibrary).url($0) },
            publishedAt: view.issue.publishAt ?? view.issue.updatedAt,
            articles: withArticles ? view.articles.map { .init($0, media: media) } : nil)
    }
}

extension Components.Schemas.MagazineAuthor {
    init(_ view: MagazineCatalog.AuthorView, media: MagazineMedia) {
        self.init(
            id: view.author.id!.idString, name: view.author.name, bio: view.bio, language: view.language,
            picture: media.image(view.author.pictureMediaID))
    }
}
