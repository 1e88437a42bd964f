import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Articles, authors and the Markdown preview (see `MagazineEditing`).
extension MagazineEditing {
    // MARK: Articles

    /// A draft article in the issue, with whatever `changes` give (position defaults to after the
    /// last article). Refused whole: `.invalid` names the field, a text's as `texts.{lang}.{field}`.
    public func createArticle(in issueID: String, _ changes: ArticleChanges = .init()) async throws -> Article {
        switch try await client.createMagazineEditorArticle(path: .init(issueId: issueID), body: .json(changes)) {
        case .created(let created): return try created.body.json
        case .badRequest(let r): throw editingFailure("createMagazineEditorArticle", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("createMagazineEditorArticle", 401, r.problem)
        case .forbidden(let r): throw editingFailure("createMagazineEditorArticle", 403, r.problem)
        case .notFound(let r): throw editingFailure("createMagazineEditorArticle", 404, r.problem)
        case .conflict(let r): throw editingFailure("createMagazineEditorArticle", 409, r.problem)
        case .contentTooLarge(let r): throw editingFailure("createMagazineEditorArticle", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("createMagazineEditorArticle", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("createMagazineEditorArticle", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("createMagazineEditorArticle", status, nil)
        }
    }

    /// An article in any status, with each language's Markdown and the HTML readers get.
    public func article(_ id: String) async throws -> Article {
        switch try await client.getMagazineEditorArticle(path: .init(articleId: id)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("getMagazineEditorArticle", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("getMagazineEditorArticle", 401, r.problem)
        case .forbidden(let r): throw editingFailure("getMagazineEditorArticle", 403, r.problem)
        case .notFound(let r): throw editingFailure("getMagazineEditorArticle", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("getMagazineEditorArticle", status, nil)
        }
    }

    /// Changes what `changes` gives (a language in `texts` is written whole; others stay). All or nothing.
    public func updateArticle(_ id: String, _ changes: ArticleChanges) async throws -> Article {
        switch try await client.updateMagazineEditorArticle(path: .init(articleId: id), body: .json(changes)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("updateMagazineEditorArticle", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("updateMagazineEditorArticle", 401, r.problem)
        case .forbidden(let r): throw editingFailure("updateMagazineEditorArticle", 403, r.problem)
        case .notFound(let r): throw editingFailure("updateMagazineEditorArticle", 404, r.problem)
        case .conflict(let r): throw editingFailure("updateMagazineEditorArticle", 409, r.problem)
        case .contentTooLarge(let r): throw editingFailure("updateMagazineEditorArticle", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("updateMagazineEditorArticle", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("updateMagazineEditorArticle", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("updateMagazineEditorArticle", status, nil)
        }
    }

    /// Readers see the article once its issue is out. `.conflict` while it has no text in any language.
    public func publishArticle(_ id: String) async throws -> Article {
        switch try await client.publishMagazineEditorArticle(path: .init(articleId: id)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("publishMagazineEditorArticle", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("publishMagazineEditorArticle", 401, r.problem)
        case .forbidden(let r): throw editingFailure("publishMagazineEditorArticle", 403, r.problem)
        case .notFound(let r): throw editingFailure("publishMagazineEditorArticle", 404, r.problem)
        case .conflict(let r): throw editingFailure("publishMagazineEditorArticle", 409, r.problem)
        case .undocumented(let status, _): throw editingFailure("publishMagazineEditorArticle", status, nil)
        }
    }

    public func unpublishArticle(_ id: String) async throws -> Article {
        switch try await client.unpublishMagazineEditorArticle(path: .init(articleId: id)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("unpublishMagazineEditorArticle", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("unpublishMagazineEditorArticle", 401, r.problem)
        case .forbidden(let r): throw editingFailure("unpublishMagazineEditorArticle", 403, r.problem)
        case .notFound(let r): throw editingFailure("unpublishMagazineEditorArticle", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("unpublishMagazineEditorArticle", status, nil)
        }
    }

    /// The HTML readers would get for `markdown` (scripts, event handlers and unsafe links removed).
    public func preview(markdown: String) async throws -> String {
        switch try await client.previewMagazineMarkdown(body: .json(.init(markdown: markdown))) {
        case .ok(let ok): return try ok.body.json.html
        case .badRequest(let r): throw editingFailure("previewMagazineMarkdown", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("previewMagazineMarkdown", 401, r.problem)
        case .forbidden(let r): throw editingFailure("previewMagazineMarkdown", 403, r.problem)
        case .notFound(let r): throw editingFailure("previewMagazineMarkdown", 404, r.problem)
        case .contentTooLarge(let r): throw editingFailure("previewMagazineMarkdown", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("previewMagazineMarkdown", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("previewMagazineMarkdown", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("previewMagazineMarkdown", status, nil)
        }
    }

    // MARK: Authors

    /// Every author by name, with the bio in each language.
    public func authors() async throws -> [Author] {
        switch try await client.listMagazineEditorAuthors() {
        case .ok(let ok): return try ok.body.json.items
        case .badRequest(let r): throw editingFailure("listMagazineEditorAuthors", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("listMagazineEditorAuthors", 401, r.problem)
        case .forbidden(let r): throw editingFailure("listMagazineEditorAuthors", 403, r.problem)
        case .notFound(let r): throw editingFailure("listMagazineEditorAuthors", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("listMagazineEditorAuthors", status, nil)
        }
    }

    public func createAuthor(name: String, bios: [String: String] = [:], pictureID: String? = nil) async throws -> Author {
        let body = Components.Schemas.MagazineEditorAuthorInput(name: name, bios: .init(additionalProperties: bios), pictureId: pictureID)
        switch try await client.createMagazineEditorAuthor(body: .json(body)) {
        case .created(let created): return try created.body.json
        case .badRequest(let r): throw editingFailure("createMagazineEditorAuthor", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("createMagazineEditorAuthor", 401, r.problem)
        case .forbidden(let r): throw editingFailure("createMagazineEditorAuthor", 403, r.problem)
        case .notFound(let r): throw editingFailure("createMagazineEditorAuthor", 404, r.problem)
        case .contentTooLarge(let r): throw editingFailure("createMagazineEditorAuthor", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("createMagazineEditorAuthor", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("createMagazineEditorAuthor", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("createMagazineEditorAuthor", status, nil)
        }
    }

    /// Changes the name, the bios (the whole set) or the picture; nil leaves it as it is.
    public func updateAuthor(_ id: String, name: String? = nil, bios: [String: String]? = nil, pictureID: String? = nil) async throws -> Author {
        let body = Components.Schemas.MagazineEditorAuthorUpdate(name: name, bios: bios.map { .init(additionalProperties: $0) }, pictureId: pictureID)
        switch try await client.updateMagazineEditorAuthor(path: .init(authorId: id), body: .json(body)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("updateMagazineEditorAuthor", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("updateMagazineEditorAuthor", 401, r.problem)
        case .forbidden(let r): throw editingFailure("updateMagazineEditorAuthor", 403, r.problem)
        case .notFound(let r): throw editingFailure("updateMagazineEditorAuthor", 404, r.problem)
        case .contentTooLarge(let r): throw editingFailure("updateMagazineEditorAuthor", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("updateMagazineEditorAuthor", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("updateMagazineEditorAuthor", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("updateMagazineEditorAuthor", status, nil)
        }
    }
}
