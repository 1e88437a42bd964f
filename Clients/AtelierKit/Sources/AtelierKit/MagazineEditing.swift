import AtelierAPI
import Foundation
import OpenAPIRuntime

extension AtelierSession {
    /// The magazine's editing desk, for accounts with the editor (or admin) role.
    public var magazineEditing: MagazineEditing { MagazineEditing(client: client) }
}

/// Writing the magazine: issues with a label per language, articles written per language in
/// Markdown (rendered to safe HTML by the server), authors, PDF editions, and publishing now,
/// at a time, or taking an issue back.
///
///     let desk = session.magazineEditing
///     let issue = try await desk.createIssue(number: 12, labels: ["en": "Issue 12", "ro": "Numărul 12"])
///     let article = try await desk.createArticle(in: issue.id, .init(authors: [authorID], texts: .init(additionalProperties: [
///         "en": .init(title: "Wool in winter", markdown: "Wool is **warm**."),
///         "ro": .init(title: "Lâna iarna", markdown: "Lâna este **caldă**."),
///     ])))
///     _ = try await desk.publishArticle(article.id)
///     _ = try await desk.schedule(issue.id, at: nextMonday)
///
/// Refusals throw `MagazineEditingError`. To an account that is not an editor every call throws
/// `.notFound`, as for something that does not exist; a 401 that a token refresh could not fix
/// throws `AtelierError.signedOut`.
public struct MagazineEditing: Sendable {
    public typealias Issue = Components.Schemas.MagazineEditorIssue
    public typealias Article = Components.Schemas.MagazineEditorArticle
    public typealias Author = Components.Schemas.MagazineEditorAuthor
    /// What to change in an article; what is left nil stays as it is.
    public typealias ArticleChanges = Components.Schemas.MagazineEditorArticleInput
    let client: Client

    public init(client: Client) {
        self.client = client
    }

    // MARK: Issues

    /// Every issue, drafts and scheduled ones too, highest number first.
    public func issues() async throws -> [Issue] {
        switch try await client.listMagazineEditorIssues() {
        case .ok(let ok): return try ok.body.json.items
        case .badRequest(let r): throw editingFailure("listMagazineEditorIssues", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("listMagazineEditorIssues", 401, r.problem)
        case .forbidden(let r): throw editingFailure("listMagazineEditorIssues", 403, r.problem)
        case .notFound(let r): throw editingFailure("listMagazineEditorIssues", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("listMagazineEditorIssues", status, nil)
        }
    }

    /// A draft issue. `.invalid` without a label in the default language, `.conflict` when the number is taken.
    public func createIssue(number: Int, labels: [String: String]) async throws -> Issue {
        let output = try await client.createMagazineEditorIssue(body: .json(.init(number: number, labels: .init(additionalProperties: labels))))
        switch output {
        case .created(let created): return try created.body.json
        case .badRequest(let r): throw editingFailure("createMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("createMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("createMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("createMagazineEditorIssue", 404, r.problem)
        case .conflict(let r): throw editingFailure("createMagazineEditorIssue", 409, r.problem)
        case .contentTooLarge(let r): throw editingFailure("createMagazineEditorIssue", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("createMagazineEditorIssue", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("createMagazineEditorIssue", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("createMagazineEditorIssue", status, nil)
        }
    }

    /// An issue with all its articles (drafts too), in position order.
    public func issue(_ id: String) async throws -> Issue {
        switch try await client.getMagazineEditorIssue(path: .init(issueId: id)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("getMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("getMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("getMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("getMagazineEditorIssue", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("getMagazineEditorIssue", status, nil)
        }
    }

    /// Changes the number, the labels (the whole set) or the cover (a photo uploaded with
    /// `POST /media`); nil leaves it as it is.
    public func updateIssue(_ id: String, number: Int? = nil, labels: [String: String]? = nil, coverID: String? = nil) async throws -> Issue {
        let body = Components.Schemas.MagazineEditorIssueUpdate(number: number, labels: labels.map { .init(additionalProperties: $0) }, coverId: coverID)
        switch try await client.updateMagazineEditorIssue(path: .init(issueId: id), body: .json(body)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("updateMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("updateMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("updateMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("updateMagazineEditorIssue", 404, r.problem)
        case .conflict(let r): throw editingFailure("updateMagazineEditorIssue", 409, r.problem)
        case .contentTooLarge(let r): throw editingFailure("updateMagazineEditorIssue", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("updateMagazineEditorIssue", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("updateMagazineEditorIssue", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("updateMagazineEditorIssue", status, nil)
        }
    }

    /// Publishes now: readers see the issue and its published articles, subscribers are told.
    public func publish(_ issueID: String) async throws -> Issue {
        switch try await client.publishMagazineEditorIssue(path: .init(issueId: issueID)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("publishMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("publishMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("publishMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("publishMagazineEditorIssue", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("publishMagazineEditorIssue", status, nil)
        }
    }

    /// Publishes at `date`, which must be ahead (`.invalid` naming `publishAt` otherwise).
    public func schedule(_ issueID: String, at date: Date) async throws -> Issue {
        switch try await client.scheduleMagazineEditorIssue(path: .init(issueId: issueID), body: .json(.init(publishAt: date))) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("scheduleMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("scheduleMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("scheduleMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("scheduleMagazineEditorIssue", 404, r.problem)
        case .contentTooLarge(let r): throw editingFailure("scheduleMagazineEditorIssue", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("scheduleMagazineEditorIssue", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("scheduleMagazineEditorIssue", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("scheduleMagazineEditorIssue", status, nil)
        }
    }

    /// Takes the issue back to draft: readers lose it and its articles now.
    public func unpublish(_ issueID: String) async throws -> Issue {
        switch try await client.unpublishMagazineEditorIssue(path: .init(issueId: issueID)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("unpublishMagazineEditorIssue", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("unpublishMagazineEditorIssue", 401, r.problem)
        case .forbidden(let r): throw editingFailure("unpublishMagazineEditorIssue", 403, r.problem)
        case .notFound(let r): throw editingFailure("unpublishMagazineEditorIssue", 404, r.problem)
        case .undocumented(let status, _): throw editingFailure("unpublishMagazineEditorIssue", status, nil)
        }
    }

    /// The PDF edition in `language` (at most 50 MB; `.invalid` naming `pdf` when it is not a PDF,
    /// `.tooLarge` past the limit).
    public func uploadPDF(_ pdf: Data, language: String, issueID: String) async throws -> Issue {
        switch try await client.uploadMagazineEditorIssuePDF(path: .init(issueId: issueID, lang: language), body: .pdf(HTTPBody(pdf))) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 400, r.problem)
        case .unauthorized(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 401, r.problem)
        case .forbidden(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 403, r.problem)
        case .notFound(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 404, r.problem)
        case .contentTooLarge(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw editingFailure("uploadMagazineEditorIssuePDF", 422, r.problem)
        case .undocumented(let status, _): throw editingFailure("uploadMagazineEditorIssuePDF", status, nil)
        }
    }
}

/// What the server refused in magazine editing; each case carries the RFC 9457 problem.
public enum MagazineEditingError: Error, Sendable, Hashable {
    /// 400 or 422: `errors` names each invalid field (`labels`, `publishAt`, `texts.ro.title`, …).
    case invalid(Components.Schemas.Problem)
    /// 404: no such issue, article or author — or the account is not an editor.
    case notFound(Components.Schemas.Problem)
    /// 409: for example the issue number is taken, or an article with no text cannot be published.
    case conflict(Components.Schemas.Problem)
    /// 403: the account may not do this (for example while suspended).
    case forbidden(Components.Schemas.Problem)
    /// 413: the body (a PDF edition) is too large.
    case tooLarge(Components.Schemas.Problem)

    public var problem: Components.Schemas.Problem {
        switch self {
        case .invalid(let p), .notFound(let p), .conflict(let p), .forbidden(let p), .tooLarge(let p): p
        }
    }
}

/// The error for a response other than the one hoped for.
func editingFailure(_ operation: String, _ status: Int, _ problem: Components.Schemas.Problem?) -> any Error {
    let problem = problem ?? .init(_type: "about:blank", title: "HTTP \(status)", status: status)
    switch status {
    case 400, 415, 422: return MagazineEditingError.invalid(problem)
    case 401: return AtelierError.signedOut
    case 403: return MagazineEditingError.forbidden(problem)
    case 404: return MagazineEditingError.notFound(problem)
    case 409: return MagazineEditingError.conflict(problem)
    case 413: return MagazineEditingError.tooLarge(problem)
    case 429: return AtelierError.rateLimited(retryAfter: nil)
    default: return AtelierError.unexpectedResponse("\(operation): HTTP \(status) \(problem.detail ?? "")")
    }
}
