import Fluent
import Vapor

/// `/people/:id`: a person's profile (Social's card, counts and friends in common) with the outfits they
/// pinned (the wardrobe's), so it sits above both.
enum PersonProfilePage {
    struct ProfilePage: WebPageContext {
        var page: PageContext
        var back: String
        var person: PersonCard
        var about: String?
        var friendCount: Int
        var postCount: Int
        var commonFriendCount: Int
        var isSelf: Bool
        /// Up to 6 outfits pinned to the profile that the viewer may see.
        var pinnedOutfits: [OutfitCard]
    }

    static func register(_ web: any RoutesBuilder) {
        web.grouped(RequireWebUser()).get("people", ":userID", use: profilePage)
    }

    static func profilePage(_ req: Request) async throws -> View {
        let userID = try req.requireWebUser().requireID()
        let profile = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).profile(try FriendsWebPages.personID(req), viewer: userID)
        return try await req.renderPage("social/profile", ProfilePage(
            page: PageContext(req, title: profile.person.user.displayName), back: "/people/\(profile.person.user.id!.idString)",
            person: PersonCard(profile.person),
            about: profile.person.user.about, friendCount: profile.friendCount, postCount: profile.postCount,
            commonFriendCount: profile.commonFriendCount, isSelf: profile.person.user.id == userID,
            pinnedOutfits: try await OutfitCard.cards(
                try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).pinned(of: profile.person.user.requireID(), viewer: userID), req: req)))
    }
}
