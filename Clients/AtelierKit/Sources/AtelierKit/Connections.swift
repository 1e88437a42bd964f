import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Connections (social.md): people met at a moment, who may invite each other to moments and see
/// each other in member lists. Friendship, which opens outfit posts, is a separate step.
public struct Connections: Sendable {
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// Connects with another person of a moment both are in (joined, checked in, or hosting).
    public func connect(userID: String, atMoment momentID: String) async throws -> Components.Schemas.UserSummary {
        let output = try await session.client.connectAtMoment(path: .init(momentId: momentID, userId: userID))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("connectAtMoment: \(output)")
        }
    }

    /// Everyone the caller may invite to a moment (friends included), most recent first; every page.
    public func all() async throws -> [Components.Schemas.UserSummary] {
        var people: [Components.Schemas.UserSummary] = []
        var cursor: String?
        repeat {
            let output = try await session.client.listConnections(query: .init(limit: 100, cursor: cursor))
            switch output {
            case .ok(let ok):
                let page = try ok.body.json
                people += page.items
                cursor = page.nextCursor ?? nil
            case .unauthorized: throw AtelierError.signedOut
            default: throw AtelierError.unexpectedResponse("listConnections: \(output)")
            }
        } while cursor != nil
        return people
    }

    public func disconnect(userID: String) async throws {
        let output = try await session.client.disconnect(path: .init(userId: userID))
        switch output {
        case .noContent: return
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        default: throw AtelierError.unexpectedResponse("disconnect: \(output)")
        }
    }
}
