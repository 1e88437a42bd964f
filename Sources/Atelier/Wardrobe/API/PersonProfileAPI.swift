import AtelierServerAPI
import Foundation
import Vapor

/// `GET /users/{userId}`: a person's profile (Social's) with the outfits they pinned (the wardrobe's).
extension APIHandler {
    func getUserProfile(_ input: Operations.GetUserProfile.Input) async throws -> Operations.GetUserProfile.Output {
        let req = try request()
        let viewerID = try await req.requireCaller().user.requireID()
        let profile = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media)
            .profile(try PathID.parse(input.path.userId, "user"), viewer: viewerID)
        let user = profile.person.user
        let pinned = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).pinned(of: user.requireID(), viewer: viewerID)
        let pinnedOutfits = try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfits(pinned, viewerID: viewerID)
        return .ok(.init(body: .json(.init(
            id: user.id!.idString, displayName: user.displayName, username: user.username, about: user.about,
            avatar: profile.person.avatar.map(Components.Schemas.Image.init), relationship: .init(profile.person.relationship), pinnedOutfits: pinnedOutfits, friendCount: profile.friendCount,
            postCount: profile.postCount, commonFriendCount: profile.commonFriendCount))))
    }
}
