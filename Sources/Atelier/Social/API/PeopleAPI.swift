import AtelierServerAPI
import Foundation
import Vapor

/// `/users…`: finding people and friends in common (a profile, with its pinned outfits, is in
/// Wardrobe/API/PersonProfileAPI.swift).
extension APIHandler {
    func searchUsers(_ input: Operations.SearchUsers.Input) async throws -> Operations.SearchUsers.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let page = try PageRequest(limit: input.query.limit, cursor: nil)
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).search(input.query.q, viewer: viewerID, limit: page.limit)
        return .ok(.init(body: .json(.init(items: people.map(Components.Schemas.UserSummary.init)))))
    }

    func listCommonFriends(_ input: Operations.ListCommonFriends.Input) async throws -> Operations.ListCommonFriends.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let directory = PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media)
        let other = try await directory.visibleUser(try PathID.parse(input.path.userId, "user"), to: viewerID)
        let ids = try await FriendService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).commonFriends(of: viewerID, and: other.requireID(), page: page)
        return .ok(.init(body: .json(.init(
            items: try await directory.people(ids.items, viewer: viewerID).map(Components.Schemas.UserSummary.init),
            nextCursor: ids.nextCursor))))
    }
}
