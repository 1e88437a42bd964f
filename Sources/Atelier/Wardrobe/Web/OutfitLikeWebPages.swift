import Fluent
import Foundation
import Vapor

/// Others' outfits on the web (issue 51): an outfit someone may see opens read-only with its
/// heart, and `/outfits/trending` lists the outfits liked most this week by people living near.
enum OutfitLikeWebPages {
    struct SharedOutfitPage: WebPageContext {
        var page: PageContext
        var outfit: OutfitCard
        var back: String
    }

    struct TrendingPage: WebPageContext {
        var page: PageContext
        var outfits: [OutfitCard]
        var hasPlace: Bool
        var radiusKm: Int
        var back = "/outfits/trending"
    }

    static func register(_ signedIn: any RoutesBuilder) {
        signedIn.get("outfits", "trending", use: trendingPage)
        signedIn.post("outfits", ":outfitID", "like", use: like)
        signedIn.post("outfits", ":outfitID", "unlike", use: unlike)
    }

    /// The page of an outfit that is not the viewer's; 404 unless they may see it.
    static func sharedOutfitPage(_ req: Request, outfitID: UUID, viewer: User) async throws -> View {
        let outfit = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).visible(outfitID, to: viewer.requireID())
        return try await req.renderPage("wardrobe/outfit-shared", SharedOutfitPage(
            page: PageContext(req, title: outfit.name), outfit: try await OutfitCard.cards([outfit], req: req)[0],
            back: "/outfits/\(outfitID.idString)"))
    }

    static func trendingPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        var outfits: [Outfit] = []
        if let lat = user.homeLat, let lng = user.homeLng {
            let ids = try await TrendingOutfits(db: req.db, now: req.atelier.clock.now())
                .near(lat: lat, lng: lng, radiusKm: Double(user.radiusKm), viewer: user.requireID(), limit: 24)
            let byID = Dictionary(uniqueKeysWithValues: try await Outfit.query(on: req.db).filter(\.$id ~~ ids).all().map { ($0.id!, $0) })
            outfits = ids.compactMap { byID[$0] }
        }
        return try await req.renderPage("wardrobe/trending-outfits", TrendingPage(
            page: PageContext(req, title: "Trending outfits"), outfits: try await OutfitCard.cards(outfits, req: req),
            hasPlace: user.homeLat != nil, radiusKm: user.radiusKm))
    }

    static func like(_ req: Request) async throws -> Response {
        try await setLiked(req, true)
    }

    static func unlike(_ req: Request) async throws -> Response {
        try await setLiked(req, false)
    }

    /// Back to the page the heart was pressed on (a local path only), else the outfit.
    private static func setLiked(_ req: Request, _ liked: Bool) async throws -> Response {
        let user = try req.requireWebUser()
        guard let id = req.parameters.get("outfitID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("outfit") }
        let outfit = try await OutfitService(db: req.db, core: req.core, mediaLibrary: req.atelier.media, wardrobeImages: req.atelier.wardrobeImages).visible(id, to: user.requireID())
        let back = (try? req.content.get(String.self, at: "back")).flatMap { $0.hasPrefix("/") && !$0.hasPrefix("//") ? $0 : nil }
        return try await req.formAction(redirectTo: back ?? "/outfits/\(id.idString)") {
            let likes = OutfitLikes(db: req.db, core: req.core, live: req.atelier.live)
            _ = liked ? try await likes.like(outfit, by: user) : try await likes.unlike(outfit, by: user.requireID())
            return nil
        }
    }
}
