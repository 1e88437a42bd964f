import Fluent
import OpenAPIRuntime
import Vapor

/// The editor portal's form actions. Each goes back to its page with a flash: bad input is
/// refused whole (the edits run in one transaction; an uploaded picture is removed again).
enum MagazinePortalActions {
    private static var base: String { MagazinePortalPages.base }

    /// A posted field (URL-encoded or multipart), trimmed of nothing; nil when absent.
    private static func field(_ req: Request, _ name: String) -> String? {
        try? req.content.get(String.self, at: name)
    }

    private static func text(_ req: Request, _ name: String) -> String { field(req, name) ?? "" }

    private static func int(_ req: Request, _ name: String) throws -> Int {
        guard let value = Int(text(req, name).trimmingCharacters(in: .whitespaces)) else { throw Problem.invalid(name, "must be a whole number") }
        return value
    }

    private static func labels(_ req: Request, prefix: String) -> [String: String] {
        var values: [String: String] = [:]
        for code in MagazinePortalPages.languages(req).all {
            let value = text(req, "\(prefix)_\(code)").trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty { values[code] = value }
        }
        return values
    }

    /// A picture from the form's `name` file field as public media (nil when none was chosen).
    private static func ingestPicture(_ req: Request, _ name: String) async throws -> Media? {
        guard let file = try? req.content.get(File.self, at: name), file.data.readableBytes > 0 else { return nil }
        let user = try req.requireWebUser()
        let upload = MediaService.Upload(
            uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
            edits: ImageEdits(crop: nil, rotate: 0, whiteBackground: false), visibility: .public)
        return try await MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).ingest(upload, body: HTTPBody(Array(file.data.readableBytesView)))
    }

    /// Runs `edit` in one transaction with the uploaded picture attached to `ownerID`; on failure
    /// the picture is removed again.
    private static func withPicture(_ req: Request, _ name: String, ownerID: UUID,
                                    _ edit: @escaping @Sendable (MagazineEditor, UUID?) async throws -> Void) async throws {
        let picture = try await ingestPicture(req, name)
        do {
            try await req.atelier.writeTransaction(on: req.db) { tx in
                try await edit(MagazineEditor(db: tx, core: req.core, mediaLibrary: req.atelier.media), picture?.id)
                if let picture { try await MediaService(db: tx, core: req.core, mediaLibrary: req.atelier.media).attach(picture, ownerType: MagazineEditor.pictureOwnerType, ownerID: ownerID) }
            }
        } catch {
            if let picture { try? await MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).delete(picture) }
            throw error
        }
    }

    // MARK: Issues

    static func createIssue(_ req: Request) async throws -> Response {
        var target = base
        let response = try await req.formAction(redirectTo: base) {
            let issue = try await MagazinePortalPages.editor(req).createIssue(number: try int(req, "number"), labels: labels(req, prefix: "label"))
            target = "\(base)/issues/\(issue.id!.idString)"
            return "Issue \(issue.number) created. Add its articles, then publish it."
        }
        return target == base ? response : req.redirect(to: target)
    }

    static func uploadPDF(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        return try await req.formAction(redirectTo: "\(base)/issues/\(issue.id!.idString)") {
            guard let file = try? req.content.get(File.self, at: "pdf"), file.data.readableBytes > 0 else {
                throw Problem.invalid("pdf", "is missing; choose the PDF file")
            }
            let lang = text(req, "lang")
            try await MagazinePDFs(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
                .attach(Data(file.data.readableBytesView), lang: lang, to: issue, uploaderID: try req.requireWebUser().requireID())
            return "PDF edition (\(lang)) saved."
        }
    }

    static func saveIssue(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        let issueID = try issue.requireID()
        return try await req.formAction(redirectTo: "\(base)/issues/\(issueID.idString)") {
            let number = try int(req, "number")
            let labels = labels(req, prefix: "label")
            try await withPicture(req, "cover", ownerID: issueID) { editor, cover in
                try await editor.updateIssue(issue, number: number, labels: labels, coverMediaID: cover ?? issue.coverMediaID)
            }
            return "Issue saved."
        }
    }

    static func newArticle(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        let editor = MagazinePortalPages.editor(req)
        let position = (try await editor.articles(of: issue).map(\.position).max() ?? -1) + 1
        let article = try await editor.createArticle(in: issue, position: position, authors: [])
        Flash.set("success", "New article. Write it in each language, then publish it.", on: req)
        return req.redirect(to: "\(base)/articles/\(article.id!.idString)")
    }

    static func publishIssue(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        return try await req.formAction(redirectTo: MagazinePortalPages.row(issue, req: req).url) {
            try await MagazinePortalPages.editor(req).publish(issue)
            return "Issue \(issue.number) is published: readers see it and its published articles now."
        }
    }

    static func scheduleIssue(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        let zone = LocalDay.zone(try req.requireWebUser().timeZone)
        return try await req.formAction(redirectTo: MagazinePortalPages.row(issue, req: req).url) {
            let date = try DateTimeLocalField.parse(field(req, "publishAt"), field: "publishAt", zone: zone)
            try await MagazinePortalPages.editor(req).schedule(issue, at: date)
            return "Issue \(issue.number) is scheduled for \(MagazinePortalPages.row(issue, req: req).publishAt)."
        }
    }

    static func unpublishIssue(_ req: Request) async throws -> Response {
        let issue = try await MagazinePortalPages.findIssue(req)
        return try await req.formAction(redirectTo: MagazinePortalPages.row(issue, req: req).url) {
            try await MagazinePortalPages.editor(req).unpublish(issue)
            return "Issue \(issue.number) is a draft again: readers no longer see it."
        }
    }

    // MARK: Articles

    static func saveArticle(_ req: Request) async throws -> Response {
        let article = try await MagazinePortalPages.findArticle(req)
        let articleID = try article.requireID()
        let authors = try await MagazinePortalPages.editor(req).allAuthors()
        return try await req.formAction(redirectTo: "\(base)/articles/\(articleID.idString)") {
            let position = try int(req, "position")
            let chosen = authors.compactMap { $0.id }.filter { field(req, "author_\($0.idString)") != nil }
            let complete = field(req, "completeArticle") != nil
            let webURL = text(req, "webURL")
            // A language whose fields are all empty is left as it is (not written yet).
            let texts: [(String, MagazineEditor.ArticleText)] = MagazinePortalPages.languages(req).all.compactMap { code in
                let text = MagazineEditor.ArticleText(
                    slug: text(req, "slug_\(code)"), title: text(req, "title_\(code)"), summary: text(req, "summary_\(code)"),
                    markdown: text(req, "markdown_\(code)"))
                let empty = [text.slug, text.title, text.summary, text.markdown].allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                return empty ? nil : (code, text)
            }
            try await withPicture(req, "lead", ownerID: articleID) { editor, lead in
                try await editor.updateArticle(article, position: position, authors: chosen, completeArticle: complete,
                                               webURL: webURL, leadMediaID: lead ?? article.leadMediaID)
                for (code, text) in texts { try await editor.setText(text, lang: code, of: article) }
            }
            return "Article saved."
        }
    }

    static func setArticlePublished(_ req: Request, _ published: Bool) async throws -> Response {
        let article = try await MagazinePortalPages.findArticle(req)
        return try await req.formAction(redirectTo: "\(base)/articles/\(try article.requireID().idString)") {
            try await MagazinePortalPages.editor(req).setPublished(published, article)
            return published ? "Article published: readers see it once its issue is out." : "Article unpublished: readers no longer see it."
        }
    }

    /// The live preview: Markdown in, the sanitised HTML the reader would get out (JSON).
    struct PreviewInput: Content { var markdown: String }
    struct PreviewOutput: Content { var html: String }

    static func preview(_ req: Request) async throws -> PreviewOutput {
        let input = try req.content.decode(PreviewInput.self)
        return PreviewOutput(html: try MagazineEditor.preview(input.markdown))
    }

    // MARK: Authors

    static func createAuthor(_ req: Request) async throws -> Response {
        try await req.formAction(redirectTo: "\(base)/authors") {
            let name = text(req, "name")
            let bios = labels(req, prefix: "bio")
            let id = UUID.v7(at: MagazinePortalPages.now(req))
            // The picture is attached to the author made in the same transaction.
            try await withPicture(req, "picture", ownerID: id) { editor, picture in
                let author = MagazineAuthor()
                author.id = id
                author.createdAt = MagazinePortalPages.now(req)
                _ = try await editor.updateAuthor(author, name: name, bios: bios, pictureMediaID: picture)
            }
            return "Author \(name.trimmingCharacters(in: .whitespacesAndNewlines)) added."
        }
    }

    static func updateAuthor(_ req: Request) async throws -> Response {
        let author = try await MagazinePortalPages.findAuthor(req)
        let authorID = try author.requireID()
        return try await req.formAction(redirectTo: "\(base)/authors#author-\(authorID.idString)") {
            let name = text(req, "name")
            let bios = labels(req, prefix: "bio")
            try await withPicture(req, "picture", ownerID: authorID) { editor, picture in
                _ = try await editor.updateAuthor(author, name: name, bios: bios, pictureMediaID: picture ?? author.pictureMediaID)
            }
            return "Author saved."
        }
    }
}
