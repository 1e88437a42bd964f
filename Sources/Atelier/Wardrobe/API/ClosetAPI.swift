import AtelierServerAPI
import Foundation
import Vapor

/// `/me/closet…`: the caller's closet items, their wears and the closet's numbers.
extension APIHandler {
    func listClosetItems(_ input: Operations.ListClosetItems.Input) async throws -> Operations.ListClosetItems.Output {
        let (req, user) = try await socialCaller()
        let q = input.query
        let filters = ClosetList.Filters(
            types: q._type.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? [],
            size: q.size, colour: q.colour, brand: q.brand, season: q.season?.rawValue, tag: q.tag, favourite: q.favourite,
            archived: q.archived, text: q.q)
        let page = try await ClosetList(db: req.db)
            .items(of: user.requireID(), filters: filters, sort: q.sort?.rawValue, limit: q.limit, cursor: q.cursor)
        let mapping = WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
        return .ok(.init(body: .json(.init(items: try await mapping.items(page.items), nextCursor: page.nextCursor))))
    }

    func addClosetItems(_ input: Operations.AddClosetItems.Input) async throws -> Operations.AddClosetItems.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let draft = try Self.closetDraft(body.fields)
        let service = ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages)
        let sources = [body.photos != nil, body.productId != nil, body.orderLineId != nil, body.gtin != nil].filter { $0 }.count
        guard sources == 1 else { throw Problem.invalid("body", "give exactly one of photos, productId, orderLineId or gtin") }
        let items: [ClosetItem]
        if let photos = body.photos {
            items = try await service.addPhotos(
                try photos.enumerated().map { index, photo in
                    guard let mediaID = UUID(uuidString: photo.mediaId) else { throw Problem.invalid("photos[\(index)].mediaId", "is not an id") }
                    let mask = try photo.maskMediaId.map { raw in
                        guard let id = UUID(uuidString: raw) else { throw Problem.invalid("photos[\(index)].maskMediaId", "is not an id") }
                        return id
                    }
                    return .init(mediaID: mediaID, maskMediaID: mask)
                }, draft: draft, owner: user)
        } else if let raw = body.productId {
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("productId", "is not an id") }
            items = [try await service.addProduct(id, size: nil, draft: draft, owner: user)]
        } else if let raw = body.orderLineId {
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("orderLineId", "is not an id") }
            items = [try await service.addOrderLine(id, draft: draft, owner: user)]
        } else {
            items = [try await service.addBarcode(body.gtin ?? "", draft: draft, owner: user)]
        }
        let mapping = WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
        return .created(.init(body: .json(.init(items: try await mapping.items(items)))))
    }

    func getClosetItem(_ input: Operations.GetClosetItem.Input) async throws -> Operations.GetClosetItem.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        let days = try await WearLog(db: req.db, core: services.core).days(of: item.requireID())
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(item, wornOn: days))))
    }

    func updateClosetItem(_ input: Operations.UpdateClosetItem.Input) async throws -> Operations.UpdateClosetItem.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let user = try await req.requireCaller().user
        let updated = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).update(item, draft: try Self.closetDraft(body), owner: user)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(updated))))
    }

    func deleteClosetItem(_ input: Operations.DeleteClosetItem.Input) async throws -> Operations.DeleteClosetItem.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).delete(item)
        return .noContent(.init())
    }

    func archiveClosetItem(_ input: Operations.ArchiveClosetItem.Input) async throws -> Operations.ArchiveClosetItem.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        let reason = input.query.reason.flatMap { ClosetItem.ArchiveReason(rawValue: $0.rawValue) }
        let archived = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).archive(item, reason: reason)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(archived))))
    }

    func unarchiveClosetItem(_ input: Operations.UnarchiveClosetItem.Input) async throws -> Operations.UnarchiveClosetItem.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        let restored = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).unarchive(item)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(restored))))
    }

    func redoClosetCutout(_ input: Operations.RedoClosetCutout.Input) async throws -> Operations.RedoClosetCutout.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        var mask: UUID?
        if let raw = input.query.maskMediaId {
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("maskMediaId", "is not an id") }
            mask = id
        }
        let user = try await req.requireCaller().user
        let pending = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).redoCutout(item, maskMediaID: mask, owner: user)
        return .accepted(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(pending))))
    }

    func logClosetWear(_ input: Operations.LogClosetWear.Input) async throws -> Operations.LogClosetWear.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        let user = try await req.requireCaller().user
        let day = try WearLog.checkWornDay(input.query.date, owner: user, now: services.clock.now())
        let log = WearLog(db: req.db, core: services.core)
        try await log.log([item.requireID()], on: day, outfitID: nil, ownerID: item.ownerID)
        let fresh = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).own(item.requireID(), of: item.ownerID)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(fresh, wornOn: try await log.days(of: fresh.requireID())))))
    }

    func removeClosetWear(_ input: Operations.RemoveClosetWear.Input) async throws -> Operations.RemoveClosetWear.Output {
        let (req, item) = try await ownClosetItem(input.path.itemId)
        guard let day = LocalDay(input.path.date) else { throw Problem.invalid("date", "is not a date that exists (YYYY-MM-DD)") }
        let log = WearLog(db: req.db, core: services.core)
        guard try await log.remove(item.requireID(), on: day) else { throw Problem.notFound("wear") }
        let fresh = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).own(item.requireID(), of: item.ownerID)
        return .ok(.init(body: .json(try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).item(fresh, wornOn: try await log.days(of: fresh.requireID())))))
    }

    func getClosetStats(_ input: Operations.GetClosetStats.Input) async throws -> Operations.GetClosetStats.Output {
        let (req, user) = try await socialCaller()
        let today = LocalDay(services.clock.now(), in: LocalDay.zone(user.timeZone))
        let stats = try await ClosetStats(db: req.db).stats(of: user.requireID(), today: today)
        let mapping = WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
        return .ok(.init(body: .json(.init(
            itemCount: stats.itemCount, byType: stats.byType.map { .init(key: $0.0, count: $0.1) },
            byColour: stats.byColour.map { .init(key: $0.0, count: $0.1) },
            value: stats.valueMinor.map { CommerceMapping.money($0.amount, $0.currency) },
            bestValue: try await mapping.items(stats.bestValue), worstValue: try await mapping.items(stats.worstValue),
            mostWorn: try await mapping.items(stats.mostWorn), notWornIn90Days: try await mapping.items(stats.neverWorn)))))
    }

    func ownClosetItem(_ rawID: String) async throws -> (Request, ClosetItem) {
        let (req, user) = try await socialCaller()
        let item = try await ClosetService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).own(try PathID.parse(rawID, "closet item"), of: user.requireID())
        return (req, item)
    }

    static func closetDraft(_ fields: Components.Schemas.ClosetItemFields?) throws -> ClosetItemDraft {
        guard let fields else { return ClosetItemDraft() }
        let clearable = ClosetItemDraft.clearable
        var draft = ClosetItemDraft()
        draft.type = fields._type?.rawValue
        draft.size = clearable(fields.size)
        draft.colours = fields.colours
        draft.pattern = clearable(fields.pattern)
        if let raw = fields.brandId {
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("brandId", "is not an id") }
            draft.brandID = .some(id)
        }
        draft.brandName = clearable(fields.brandName)
        draft.seasons = fields.seasons?.map(\.rawValue)
        draft.tags = fields.tags
        draft.notes = fields.notes
        if let price = fields.price {
            guard price.amount <= Int64(ClosetItemDraft.maxPriceMinor), price.amount >= Int64(Int32.min) else {
                throw Problem.invalid("price.amount", price.amount < 0 ? "must not be negative" : "is too large")
            }
            draft.priceMinor = .some(Int(price.amount))
            draft.currency = .some(price.currency)
        } else if fields.clearPrice == true {
            draft.priceMinor = .some(nil)
            draft.currency = .some(nil)
        }
        draft.purchasedOn = clearable(fields.purchasedOn)
        draft.favourite = fields.favourite
        return draft
    }
}
