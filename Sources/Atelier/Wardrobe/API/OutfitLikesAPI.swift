import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/outfits/{id}/like` and `/outfits/trending`.
extension APIHandler {
    func likeOutfit(_ input: Operations.LikeOutfit.Input) async throws -> Operations.LikeOutfit.Output {
        let (req, user) = try await socialCaller()
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
            .visible(try PathID.parse(input.path.outfitId, "outfit"), to: user.requireID())
        let state = try await OutfitLikes(db: req.db, core: services.core, live: services.live).like(outfit, by: user)
        return .ok(.init(body: .json(.init(liked: state.liked, likeCount: state.count))))
    }

    func unlikeOutfit(_ input: Operations.UnlikeOutfit.Input) async throws -> Operations.UnlikeOutfit.Output {
        let (req, user) = try await socialCaller()
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
            .visible(try PathID.parse(input.path.outfitId, "outfit"), to: user.requireID())
        let state = try await OutfitLikes(db: req.db, core: services.core, live: services.live).unlike(outfit, by: user.requireID())
        return .ok(.init(body: .json(.init(liked: state.liked, likeCount: state.count))))
    }

    func listTrendingOutfits(_ input: Operations.ListTrendingOutfits.Input) async throws -> Operations.ListTrendingOutfits.Output {
        let (req, user) = try await socialCaller()
        let q = input.query
        let limit = q.limit ?? 20
        guard (1...TrendingOutfits.maxLimit).contains(limit) else { throw Problem.invalid("limit", "must be 1 to \(TrendingOutfits.maxLimit)") }
        let (lat, lng) = try Geo.place(lat: q.lat, lng: q.lng, orHomeOf: user)
        let now = services.clock.now()
        let ids = try await TrendingOutfits(db: req.db, now: now)
            .near(lat: lat, lng: lng, radiusKm: Double(q.radiusKm?.rawValue ?? user.radiusKm), viewer: user.requireID(), limit: limit)
        let outfits = try await Outfit.query(on: req.db).filter(\.$id ~~ ids).all()
        let byID = Dictionary(uniqueKeysWithValues: outfits.map { ($0.id!, $0) })
        let items = try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfits(ids.compactMap { byID[$0] }, viewerID: user.requireID())
        return .ok(.init(body: .json(.init(items: items, since: now.addingTimeInterval(-TrendingOutfits.window)))))
    }
}
