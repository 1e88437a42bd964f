import AtelierServerAPI
import Foundation
import Vapor

/// `/me/outfits`, `/outfits/{id}…`, pinned outfits and suggestions.
extension APIHandler {
    func listMyOutfits(_ input: Operations.ListMyOutfits.Input) async throws -> Operations.ListMyOutfits.Output {
        let (req, user) = try await socialCaller()
        let page = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
            .list(of: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let items = try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfits(page.items, viewerID: user.requireID())
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func createOutfit(_ input: Operations.CreateOutfit.Input) async throws -> Operations.CreateOutfit.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).create(try Self.outfitDraft(body), owner: user)
        return .created(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfit(outfit, viewerID: user.requireID()))))
    }

    func getOutfit(_ input: Operations.GetOutfit.Input) async throws -> Operations.GetOutfit.Output {
        let (req, user) = try await socialCaller()
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
            .visible(try PathID.parse(input.path.outfitId, "outfit"), to: user.requireID())
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfit(outfit, viewerID: user.requireID()))))
    }

    func updateOutfit(_ input: Operations.UpdateOutfit.Input) async throws -> Operations.UpdateOutfit.Output {
        let (req, user, outfit) = try await ownOutfit(input.path.outfitId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let updated = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).update(outfit, draft: try Self.outfitDraft(body))
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfit(updated, viewerID: user.requireID()))))
    }

    func deleteOutfit(_ input: Operations.DeleteOutfit.Input) async throws -> Operations.DeleteOutfit.Output {
        let (req, _, outfit) = try await ownOutfit(input.path.outfitId)
        try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).delete(outfit)
        return .noContent(.init())
    }

    func pinOutfit(_ input: Operations.PinOutfit.Input) async throws -> Operations.PinOutfit.Output {
        let (req, user, outfit) = try await ownOutfit(input.path.outfitId)
        let pinned = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).setPinned(outfit, true)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfit(pinned, viewerID: user.requireID()))))
    }

    func unpinOutfit(_ input: Operations.UnpinOutfit.Input) async throws -> Operations.UnpinOutfit.Output {
        let (req, user, outfit) = try await ownOutfit(input.path.outfitId)
        let unpinned = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).setPinned(outfit, false)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfit(unpinned, viewerID: user.requireID()))))
    }

    func markOutfitWorn(_ input: Operations.MarkOutfitWorn.Input) async throws -> Operations.MarkOutfitWorn.Output {
        let (req, user, outfit) = try await ownOutfit(input.path.outfitId)
        let day = try WearLog.checkWornDay(input.query.date, owner: user, now: services.clock.now())
        let plan = try await WardrobeCalendar(db: req.db, core: services.core).markWorn(outfit, on: day)
        return .ok(.init(body: .json(WardrobeMapping.entry(plan))))
    }

    func listPinnedOutfits(_ input: Operations.ListPinnedOutfits.Input) async throws -> Operations.ListPinnedOutfits.Output {
        let (req, user) = try await socialCaller()
        let ownerID = try PathID.parse(input.path.userId, "person")
        guard try await User.find(ownerID, on: req.db) != nil,
            try await !SocialGraph(db: req.db).blockedEitherWay(ownerID, user.requireID())
        else { throw Problem.notFound("person") }
        let outfits = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).pinned(of: ownerID, viewer: user.requireID())
        let items = try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).outfits(outfits, viewerID: user.requireID())
        return .ok(.init(body: .json(.init(items: items, nextCursor: nil))))
    }

    func suggestOutfits(_ input: Operations.SuggestOutfits.Input) async throws -> Operations.SuggestOutfits.Output {
        let (req, user) = try await socialCaller()
        let q = input.query
        if let temperature = q.temperature, !temperature.isFinite || !(-60...60).contains(temperature) {
            throw Problem(.badRequest, detail: "temperature must be between -60 and 60 °C.", errors: [.init(field: "temperature", message: "must be between -60 and 60 °C")])
        }
        let restDays = q.restDays ?? 3
        guard (0...60).contains(restDays) else {
            throw Problem(.badRequest, detail: "restDays must be between 0 and 60.", errors: [.init(field: "restDays", message: "must be between 0 and 60")])
        }
        let limit = q.limit ?? 5
        guard (1...20).contains(limit) else {
            throw Problem(.badRequest, detail: "limit must be between 1 and 20.", errors: [.init(field: "limit", message: "must be between 1 and 20")])
        }
        let today = LocalDay(services.clock.now(), in: LocalDay.zone(user.timeZone))
        let season = q.season.flatMap { ClosetItem.Season(rawValue: $0.rawValue) } ?? OutfitSuggestions.season(of: today)
        let suggestions = try await OutfitSuggestions(db: req.db).suggest(for: user.requireID(), today: today, .init(
            temperature: q.temperature, season: season, occasion: q.occasion.flatMap { Outfit.Occasion(rawValue: $0.rawValue) },
            restDays: restDays, limit: limit))
        let mapping = WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
        var items: [Components.Schemas.OutfitSuggestion] = []
        for suggestion in suggestions {
            items.append(.init(items: try await mapping.items(suggestion.items), reasons: suggestion.reasons))
        }
        return .ok(.init(body: .json(.init(items: items, season: season.rawValue, temperature: q.temperature))))
    }

    func ownOutfit(_ rawID: String) async throws -> (Request, User, Outfit) {
        let (req, user) = try await socialCaller()
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).own(try PathID.parse(rawID, "outfit"), of: user.requireID())
        return (req, user, outfit)
    }

    static func outfitDraft(_ body: Components.Schemas.OutfitInput) throws -> OutfitDraft {
        var draft = OutfitDraft()
        draft.name = body.name
        draft.occasion = body.occasion.map { .some($0.rawValue) }
        draft.visibility = body.visibility?.rawValue
        draft.favourite = body.favourite
        draft.pieces = try body.pieces?.enumerated().map { index, piece in
            func id(_ raw: String?, _ field: String) throws -> UUID? {
                guard let raw else { return nil }
                guard let id = UUID(uuidString: raw) else { throw Problem.invalid("pieces[\(index)].\(field)", "is not an id") }
                return id
            }
            return OutfitDraft.Piece(
                closetItemID: try id(piece.closetItemId, "closetItemId"), productID: try id(piece.productId, "productId"),
                x: piece.x, y: piece.y, scale: piece.scale, rotation: piece.rotation, z: piece.z)
        }
        return draft
    }
}
