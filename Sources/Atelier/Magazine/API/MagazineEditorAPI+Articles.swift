import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/magazine/editor/articles…`, `/magazine/editor/authors…` and the Markdown preview: the
/// portal's article and author forms over the API (who may call: see `MagazineEditorAPI.swift`).
extension APIHandler {
    func createMagazineEditorArticle(_ input: Operations.CreateMagazineEditorArticle.Input) async throws -> Operations.CreateMagazineEditorArticle.Output {
        let desk = try await magazineDesk()
        let issue = try await desk.issue(input.path.issueId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let changes = try ArticleChanges(body)
        // After the last article, as the portal's "New article" puts it.
        let last = try await desk.editor.articles(of: issue).map(\.position).max()
        let position = body.position ?? ((last ?? -1) + 1)
        let article = try await desk.edit { editor in
            let article = try await editor.createArticle(in: issue, position: position, authors: [])
            try await changes.apply(to: article, authors: [], editor: editor, userID: desk.userID)
            return article
        }
        return .created(.init(body: .json(try await desk.articleBody(article))))
    }

    func getMagazineEditorArticle(_ input: Operations.GetMagazineEditorArticle.Input) async throws -> Operations.GetMagazineEditorArticle.Output {
        let desk = try await magazineDesk()
        return .ok(.init(body: .json(try await desk.articleBody(try await desk.article(input.path.articleId)))))
    }

    func updateMagazineEditorArticle(_ input: Operations.UpdateMagazineEditorArticle.Input) async throws -> Operations.UpdateMagazineEditorArticle.Output {
        let desk = try await magazineDesk()
        let article = try await desk.article(input.path.articleId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let changes = try ArticleChanges(body)
        let authors = try await desk.editor.authorIDs(of: article)
        try await desk.edit { editor in try await changes.apply(to: article, authors: authors, editor: editor, userID: desk.userID) }
        return .ok(.init(body: .json(try await desk.articleBody(article))))
    }

    func publishMagazineEditorArticle(_ input: Operations.PublishMagazineEditorArticle.Input) async throws -> Operations.PublishMagazineEditorArticle.Output {
        let desk = try await magazineDesk()
        let article = try await desk.article(input.path.articleId)
        try await desk.editor.setPublished(true, article)
        return .ok(.init(body: .json(try await desk.articleBody(article))))
    }

    func unpublishMagazineEditorArticle(_ input: Operations.UnpublishMagazineEditorArticle.Input) async throws -> Operations.UnpublishMagazineEditorArticle.Output {
        let desk = try await magazineDesk()
        let article = try await desk.article(input.path.articleId)
        try await desk.editor.setPublished(false, article)
        return .ok(.init(body: .json(try await desk.articleBody(article))))
    }

    func previewMagazineMarkdown(_ input: Operations.PreviewMagazineMarkdown.Input) async throws -> Operations.PreviewMagazineMarkdown.Output {
        _ = try await magazineDesk()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        return .ok(.init(body: .json(.init(html: try MagazineEditor.preview(body.markdown)))))
    }

    // MARK: Authors

    func listMagazineEditorAuthors(_ input: Operations.ListMagazineEditorAuthors.Input) async throws -> Operations.ListMagazineEditorAuthors.Output {
        let desk = try await magazineDesk()
        let authors = try await desk.editor.allAuthors()
        let media = try await desk.media(authors.compactMap(\.pictureMediaID))
        return .ok(.init(body: .json(.init(items: authors.map { .init($0, media: media) }))))
    }

    func createMagazineEditorAuthor(_ input: Operations.CreateMagazineEditorAuthor.Input) async throws -> Operations.CreateMagazineEditorAuthor.Output {
        let desk = try await magazineDesk()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let picture = try body.pictureId.map { try MagazineEditorDesk.mediaID($0, field: "pictureId") }
        let now = services.clock.now()
        let id = UUID.v7(at: now)
        let author = try await desk.edit { editor in
            if let picture { try await editor.claimPicture(picture, field: "pictureId", for: id, by: desk.userID) }
            let author = MagazineAuthor()
            author.id = id
            author.createdAt = now
            return try await editor.updateAuthor(
                author, name: body.name, bios: body.bios.map(MagazineEditorDesk.languageStrings) ?? [:], pictureMediaID: picture)
        }
        return .created(.init(body: .json(.init(author, media: try await desk.media([author.pictureMediaID].compactMap { $0 })))))
    }

    func updateMagazineEditorAuthor(_ input: Operations.UpdateMagazineEditorAuthor.Input) async throws -> Operations.UpdateMagazineEditorAuthor.Output {
        let desk = try await magazineDesk()
        let author = try await desk.author(input.path.authorId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let picture = try body.pictureId.map { try MagazineEditorDesk.mediaID($0, field: "pictureId") }
        let authorID = try author.requireID()
        _ = try await desk.edit { editor in
            if let picture { try await editor.claimPicture(picture, field: "pictureId", for: authorID, by: desk.userID) }
            return try await editor.updateAuthor(
                author, name: body.name ?? author.name, bios: body.bios.map(MagazineEditorDesk.languageStrings) ?? author.bios,
                pictureMediaID: picture ?? author.pictureMediaID)
        }
        return .ok(.init(body: .json(.init(author, media: try await desk.media([author.pictureMediaID].compactMap { $0 })))))
    }
}

/// An article form's worth of changes: what is left out stays as it is.
private struct ArticleChanges: Sendable {
    var input: Components.Schemas.MagazineEditorArticleInput
    var authors: [UUID]?
    var lead: UUID?

    init(_ input: Components.Schemas.MagazineEditorArticleInput) throws {
        self.input = input
        authors = try input.authors.map { ids in
            try ids.map { raw in
                guard let id = UUID(uuidString: raw) else { throw Problem.invalid("authors", "names someone who is not an author") }
                return id
            }
        }
        lead = try input.leadImageId.map { try MagazineEditorDesk.mediaID($0, field: "leadImageId") }
    }

    /// The portal's article save: position, byline, link and lead photo, then each text given.
    func apply(to article: MagazineArticle, authors current: [UUID], editor: MagazineEditor, userID: UUID) async throws {
        let articleID = try article.requireID()
        if let lead { try await editor.claimPicture(lead, field: "leadImageId", for: articleID, by: userID) }
        try await editor.updateArticle(
            article, position: input.position ?? article.position, authors: authors ?? current,
            completeArticle: input.completeArticle ?? article.completeArticle, webURL: input.webURL ?? article.webURL,
            leadMediaID: lead ?? article.leadMediaID)
        for (lang, text) in (input.texts?.additionalProperties ?? [:]).sorted(by: { $0.key < $1.key }) {
            do {
                try await editor.setText(
                    .init(slug: text.slug ?? "", title: text.title, summary: text.summary ?? "", markdown: text.markdown), lang: lang, of: article)
            } catch var problem as Problem {
                // The text's fields are named within `texts`, so that two languages' errors differ.
                problem.errors = problem.errors.map { .init(field: $0.field == "lang" ? "texts.\(lang)" : "texts.\(lang).\($0.field)", message: $0.message) }
                throw problem
            }
        }
    }
}

extension MagazineEditorDesk {
    func articleBody(_ article: MagazineArticle) async throws -> Components.Schemas.MagazineEditorArticle {
        let texts = try await editor.texts(of: article)
        let authorIDs = try await editor.authorIDs(of: article)
        let authors = authorIDs.isEmpty ? [] : try await MagazineAuthor.query(on: req.db).filter(\.$id ~~ authorIDs).all()
        let byID = Dictionary(authors.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
        let media = try await media([article.leadMediaID].compactMap { $0 })
        return .init(
            id: article.id!.idString, issueId: article.issueID.idString, position: article.position,
            status: .init(rawValue: article.status) ?? .draft, completeArticle: article.completeArticle, webURL: article.webURL,
            leadImageId: article.leadMediaID?.idString, leadImage: media.image(article.leadMediaID),
            authors: authorIDs.compactMap { byID[$0] }.map { .init(id: $0.id!.idString, name: $0.name) },
            texts: .init(additionalProperties: texts.mapValues {
                .init(slug: $0.slug, title: $0.title, summary: $0.summary, markdown: $0.markdown, html: $0.html, updatedAt: $0.updatedAt)
            }),
            updatedAt: article.updatedAt)
    }
}

extension Components.Schemas.MagazineEditorAuthor {
    init(_ author: MagazineAuthor, media: MagazineMedia) {
        self.init(
            id: author.id!.idString, name: author.name, bios: .init(additionalProperties: author.bios),
            pictureId: author.pictureMediaID?.idString, picture: media.image(author.pictureMediaID))
    }
}
