import AtelierServerAPI
import Fluent
import Foundation
import OpenAPIRuntime
import Vapor

/// `/magazine/editor/issues…`: what the editor portal does, over the API, with the same
/// `MagazineEditor` rules. Editors and admins only: signed out it is a 401 like every signed-in
/// operation, and to anyone else signed in every operation is a 404, as the portal is.
/// Articles and authors are in `MagazineEditorAPI+Articles.swift`.
extension APIHandler {
    func listMagazineEditorIssues(_ input: Operations.ListMagazineEditorIssues.Input) async throws -> Operations.ListMagazineEditorIssues.Output {
        let desk = try await magazineDesk()
        let issues = try await desk.editor.allIssues()
        let media = try await desk.media(issues.compactMap(\.coverMediaID) + issues.flatMap { Array($0.pdfs.values) })
        return .ok(.init(body: .json(.init(items: issues.map { .init($0, media: media) }))))
    }

    func createMagazineEditorIssue(_ input: Operations.CreateMagazineEditorIssue.Input) async throws -> Operations.CreateMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let issue = try await desk.editor.createIssue(number: body.number, labels: MagazineEditorDesk.languageStrings(body.labels))
        return .created(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func getMagazineEditorIssue(_ input: Operations.GetMagazineEditorIssue.Input) async throws -> Operations.GetMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func updateMagazineEditorIssue(_ input: Operations.UpdateMagazineEditorIssue.Input) async throws -> Operations.UpdateMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let cover = try body.coverId.map { try MagazineEditorDesk.mediaID($0, field: "coverId") }
        let issueID = try issue.requireID()
        try await desk.edit { editor in
            if let cover { try await editor.claimPicture(cover, field: "coverId", for: issueID, by: desk.userID) }
            try await editor.updateIssue(
                issue, number: body.number ?? issue.number, labels: body.labels.map(MagazineEditorDesk.languageStrings) ?? issue.labels,
                coverMediaID: cover ?? issue.coverMediaID)
        }
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func publishMagazineEditorIssue(_ input: Operations.PublishMagazineEditorIssue.Input) async throws -> Operations.PublishMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        try await desk.editor.publish(issue)
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func scheduleMagazineEditorIssue(_ input: Operations.ScheduleMagazineEditorIssue.Input) async throws -> Operations.ScheduleMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        try await desk.editor.schedule(issue, at: body.publishAt)
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func unpublishMagazineEditorIssue(_ input: Operations.UnpublishMagazineEditorIssue.Input) async throws -> Operations.UnpublishMagazineEditorIssue.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        try await desk.editor.unpublish(issue)
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    func uploadMagazineEditorIssuePDF(_ input: Operations.UploadMagazineEditorIssuePDF.Input) async throws -> Operations.UploadMagazineEditorIssuePDF.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        let body: HTTPBody
        switch input.body {
        case .pdf(let bytes): body = bytes
        case .binary(let bytes): body = bytes
        }
        // One byte past the limit is enough for `MagazinePDFs` to refuse it as too large.
        var data = Data()
        for try await chunk in body {
            data.append(contentsOf: chunk)
            if data.count > MagazinePDFs.maxBytes { break }
        }
        try await MagazinePDFs(db: desk.req.db, core: services.core, mediaLibrary: services.media).attach(data, lang: input.path.lang, to: issue, uploaderID: desk.userID)
        return .ok(.init(body: .json(try await desk.issueBody(issue, withArticles: true))))
    }

    /// The caller as an editor (or admin), with the editing services; a 404 for anyone else.
    func magazineDesk() async throws -> MagazineEditorDesk {
        let req = try request()
        let user = try await req.requireCaller().user
        guard user.isEditor || user.isAdmin else { throw Problem.notFound() }
        return MagazineEditorDesk(req: req, userID: try user.requireID(), handler: self)
    }
}

/// One editor's request: finding what they edit, editing it in one transaction, and the answers.
struct MagazineEditorDesk: Sendable {
    let req: Request
    let userID: UUID
    let handler: APIHandler

    var core: CoreServices { req.core }
    var mediaLibrary: MediaLibrary { req.atelier.media }
    var editor: MagazineEditor { MagazineEditor(db: req.db, core: core, mediaLibrary: mediaLibrary) }

    func issue(_ raw: String) async throws -> MagazineIssue {
        guard let issue = try await MagazineIssue.find(try PathID.parse(raw, "issue"), on: req.db) else { throw Problem.notFound("issue") }
        return issue
    }

    func article(_ raw: String) async throws -> MagazineArticle {
        guard let article = try await MagazineArticle.find(try PathID.parse(raw, "article"), on: req.db) else { throw Problem.notFound("article") }
        return article
    }

    func author(_ raw: String) async throws -> MagazineAuthor {
        guard let author = try await MagazineAuthor.find(try PathID.parse(raw, "author"), on: req.db) else { throw Problem.notFound("author") }
        return author
    }

    /// Runs the edits in one transaction, as the portal's save does: bad input changes nothing.
    func edit<T: Sendable>(_ body: @escaping @Sendable (MagazineEditor) async throws -> T) async throws -> T {
        return try await core.writeTransaction(on: req.db) { tx in try await body(MagazineEditor(db: tx, core: core, mediaLibrary: mediaLibrary)) }
    }

    func media(_ ids: [UUID]) async throws -> MagazineMedia { try await handler.magazineMedia(ids, req) }

    func issueBody(_ issue: MagazineIssue, withArticles: Bool) async throws -> Components.Schemas.MagazineEditorIssue {
        let media = try await media([issue.coverMediaID].compactMap { $0 } + Array(issue.pdfs.values))
        guard withArticles else { return .init(issue, media: media) }
        let articles = try await editor.articles(of: issue)
        let ids = articles.map { $0.id! }
        let texts = ids.isEmpty ? [] : try await MagazineArticleText.query(on: req.db).filter(\.$articleID ~~ ids).all()
        let byArticle = Dictionary(grouping: texts, by: \.articleID)
        let languages = MagazineLanguages(core.config.magazineLanguages)
        return .init(issue, media: media, articles: articles.map { article in
            let mine = byArticle[article.id!] ?? []
            let title = languages.pick(languages.default, available: mine.map(\.lang)).flatMap { lang in mine.first { $0.lang == lang }?.title }
            return .init(
                id: article.id!.idString, position: article.position, status: .init(rawValue: article.status) ?? .draft,
                title: title ?? "", languages: mine.map(\.lang).sorted())
        })
    }

    /// Labels and bios as the portal reads them: trimmed, empty ones left out.
    static func languageStrings(_ strings: Components.Schemas.MagazineLanguageStrings) -> [String: String] {
        strings.additionalProperties.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.value.isEmpty }
    }

    static func mediaID(_ raw: String, field: String) throws -> UUID {
        guard let id = UUID(uuidString: raw) else { throw Problem.invalid(field, "is not a photo you uploaded") }
        return id
    }
}

extension Components.Schemas.MagazineEditorIssue {
    init(_ issue: MagazineIssue, media: MagazineMedia, articles: [Components.Schemas.MagazineEditorArticleSummary]? = nil) {
        let pdfs = MagazinePDFs(db: media.service.db, core: media.service.core, mediaLibrary: media.service.mediaLibrary)
        self.init(
            id: issue.id!.idString, number: issue.number, labels: .init(additionalProperties: issue.labels),
            status: .init(rawValue: issue.status) ?? .draft, publishAt: issue.publishAt, coverId: issue.coverMediaID?.idString,
            cover: media.image(issue.coverMediaID),
            pdfs: .init(additionalProperties: issue.pdfs.compactMapValues { media.byID[$0].map(pdfs.url) }),
            articles: articles, createdAt: issue.createdAt, updatedAt: issue.updatedAt)
    }
}
