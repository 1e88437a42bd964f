import AtelierServerAPI
import Foundation
import Vapor

/// `/users…`: finding people, profiles and friends in common.
extension APIHandler {
    func searchUsers(_ input: Operations.SearchUsers.Input) async throws -> Operations.SearchUsers.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let page = try PageRequest(limit: input.query.limit, cursor: nil)
        let people = try await PeopleDirectory(db: req.db, services: services).search(input.query.q, viewer: viewerID, limit: page.limit)
        return .ok(.init(body: .json(.init(items: people.map(Components.Schemas.UserSummary.init)))))
    }

    func getUserProfile(_ input: Operations.GetUserProfile.Input) async throws -> Operations.GetUserProfile.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let profile = try await PeopleDirectory(db: req.db, services: services)
            .profile(try PathID.parse(input.path.userId, "user"), viewer: viewerID)
        let user = profile.person.user
        let pinned = try await OutfitService(db: req.db, services: services).pinned(of: user.requireID(), viewer: viewerID)
        let pinnedOutfits = try await WardrobeMapping(db: req.db, services: services).outfits(pinned, viewerID: viewerID)
        return .ok(.init(body: .json(.init(
            id: user.id!.idString, displayName: user.displayName, username: user.username, about: user.about,
            avatar: profile.person.avatar.map(Components.Schemas.Image.init), relationship: .init(profile.person.relationship), pinnedOutfits: pinnedOutfits, friendCount: profile.friendCount,
            postCount: profile.postCount, commonFriendCount: profile.commonFriendCount))))
    }

    func listCommonFriends(_ input: Operations.ListCommonFriends.Input) async throws -> Operations.ListCommonFriends.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let directory = PeopleDirectory(db: req.db, services: services)
        let other = try await directory.visibleUser(try PathID.parse(input.path.userId, "user"), to: viewerID)
        let ids = try await FriendService(db: req.db, services: services).commonFriends(of: viewerID, and: other.requireID(), page: page)
        return .ok(.init(body: .json(.init(
            items: try await directory.people(ids.items, viewer: viewerID).map(Components.Schemas.UserSummary.init),
            nextCursor: ids.nextCursor))))
    }
}
