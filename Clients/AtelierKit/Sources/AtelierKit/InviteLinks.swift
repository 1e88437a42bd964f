import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Invite links (social.md): make one to send, show who sent one, accept one signed in. A new
/// person passes the token to `AtelierSession.signUp(…, inviteToken:)` instead.
public struct InviteLinks: Sendable {
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// A link that works once, for 30 days; `token` is what an app that opens the link itself uses.
    public func make() async throws -> Components.Schemas.InviteLinkCreated {
        let output = try await session.client.createInviteLink()
        switch output {
        case .created(let created): return try created.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .tooManyRequests(let r): throw AtelierError.rateLimited(retryAfter: r.headers.retryAfter.map { .seconds($0) })
        default: throw AtelierError.unexpectedResponse("createInviteLink: \(output)")
        }
    }

    /// Who sent the link (no sign-in needed), or `rejected` (404 unknown, 409 used or expired).
    public func sender(of token: String) async throws -> Components.Schemas.InvitePreview {
        let output = try await session.client.getInviteLink(path: .init(token: token))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        default: throw AtelierError.unexpectedResponse("getInviteLink: \(output)")
        }
    }

    /// Connects the signed-in person with the link's sender; returns the sender.
    public func accept(_ token: String) async throws -> Components.Schemas.UserSummary {
        let output = try await session.client.acceptInviteLink(path: .init(token: token))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("acceptInviteLink: \(output)")
        }
    }
}
