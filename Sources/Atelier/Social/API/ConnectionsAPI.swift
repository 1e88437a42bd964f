import AtelierServerAPI
import Foundation
import Vapor

/// `/me/connections…`: who the caller may invite to moments, and ending a connection.
extension APIHandler {
    func listConnections(_ input: Operations.ListConnections.Input) async throws -> Operations.ListConnections.Output {
        let (req, user) = try await socialCaller()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let ids = try await ConnectionService(db: req.db, core: services.core, mediaLibrary: services.media).connections(of: user.requireID(), page: page)
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).people(ids.items, viewer: user.requireID())
        return .ok(.init(body: .json(.init(items: people.map(Components.Schemas.UserSummary.init), nextCursor: ids.nextCursor))))
    }

    func disconnect(_ input: Operations.Disconnect.Input) async throws -> Operations.Disconnect.Output {
        let (req, user) = try await socialCaller()
        let otherID = try PathID.parse(input.path.userId, "connection")
        try await ConnectionService(db: req.db, core: services.core, mediaLibrary: services.media).disconnect(otherID, from: user.requireID())
        return .noContent(.init())
    }
}
