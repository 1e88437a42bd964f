import AtelierAPI
import Foundation
import OpenAPIRuntime

/// The installation's privacy policy and terms (an app links them from sign-up and settings, as
/// app stores ask), and its contact form.
public struct SitePages: Sendable {
    public enum Page: String, Sendable { case privacy, terms }

    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// The page as HTML (and the Markdown it came from); no sign-in needed.
    public func page(_ page: Page) async throws -> Components.Schemas.SitePage {
        let output = try await session.client.getSitePage(path: .init(slug: .init(rawValue: page.rawValue)!))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        default: throw AtelierError.unexpectedResponse("getSitePage: \(output)")
        }
    }

    /// A message for the admins; `email` is needed when signed out. Five an hour per person.
    public func sendFeedback(subject: String, message: String, email: String? = nil) async throws {
        let output = try await session.client.sendFeedback(body: .json(.init(email: email, subject: subject, message: message)))
        switch output {
        case .accepted: return
        case .tooManyRequests(let r): throw AtelierError.rateLimited(retryAfter: r.headers.retryAfter.map { .seconds($0) })
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        default: throw AtelierError.unexpectedResponse("sendFeedback: \(output)")
        }
    }
}
