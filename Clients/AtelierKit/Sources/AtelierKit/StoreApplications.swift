import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Applying to open a store: admins approve (the store is made with the applicant as its owner)
/// or decline with a reason, which reaches the applicant's inbox and `mine()`.
public struct StoreApplications: Sendable {
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    public func apply(_ input: Components.Schemas.StoreApplicationInput) async throws -> Components.Schemas.StoreApplication {
        let output = try await session.client.applyForStore(body: .json(input))
        switch output {
        case .created(let created): return try created.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        default: throw AtelierError.unexpectedResponse("applyForStore: \(output)")
        }
    }

    /// The caller's applications, newest first.
    public func mine() async throws -> [Components.Schemas.StoreApplication] {
        let output = try await session.client.listMyStoreApplications()
        switch output {
        case .ok(let ok): return try ok.body.json.items
        case .unauthorized: throw AtelierError.signedOut
        default: throw AtelierError.unexpectedResponse("listMyStoreApplications: \(output)")
        }
    }
}
