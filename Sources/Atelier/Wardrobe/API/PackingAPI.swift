import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/me/packing-lists…`: what to take on a trip, checked off as packed.
extension APIHandler {
    func listPackingLists(_ input: Operations.ListPackingLists.Input) async throws -> Operations.ListPackingLists.Output {
        let (req, user) = try await socialCaller()
        let service = PackingService(db: req.db, core: services.core)
        var bodies: [Components.Schemas.PackingList] = []
        for list in try await service.lists(of: user.requireID()) { bodies.append(try await packingBody(list, req)) }
        return .ok(.init(body: .json(.init(items: bodies))))
    }

    func createPackingList(_ input: Operations.CreatePackingList.Input) async throws -> Operations.CreatePackingList.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        var errors = FieldErrors()
        let outfitIDs = SearchParameters.ids(body.outfitIds, "outfitIds", into: &errors)
        let itemIDs = SearchParameters.ids(body.closetItemIds, "closetItemIds", into: &errors)
        try errors.throwIfAny()
        let list = try await PackingService(db: req.db, core: services.core).create(
            ownerID: user.requireID(), name: body.name, from: body.from, to: body.to, outfitIDs: outfitIDs, itemIDs: itemIDs)
        return .created(.init(body: .json(try await packingBody(list, req))))
    }

    func getPackingList(_ input: Operations.GetPackingList.Input) async throws -> Operations.GetPackingList.Output {
        let (req, list) = try await ownPackingList(input.path.listId)
        return .ok(.init(body: .json(try await packingBody(list, req))))
    }

    func deletePackingList(_ input: Operations.DeletePackingList.Input) async throws -> Operations.DeletePackingList.Output {
        let (req, list) = try await ownPackingList(input.path.listId)
        try await PackingService(db: req.db, core: services.core).delete(list)
        return .noContent(.init())
    }

    func packItem(_ input: Operations.PackItem.Input) async throws -> Operations.PackItem.Output {
        let (req, list) = try await ownPackingList(input.path.listId)
        try await PackingService(db: req.db, core: services.core).setPacked(list, itemID: try PathID.parse(input.path.itemId, "packing list item"), true)
        return .ok(.init(body: .json(try await packingBody(list, req))))
    }

    func unpackItem(_ input: Operations.UnpackItem.Input) async throws -> Operations.UnpackItem.Output {
        let (req, list) = try await ownPackingList(input.path.listId)
        try await PackingService(db: req.db, core: services.core).setPacked(list, itemID: try PathID.parse(input.path.itemId, "packing list item"), false)
        return .ok(.init(body: .json(try await packingBody(list, req))))
    }

    private func ownPackingList(_ raw: String) async throws -> (Request, PackingList) {
        let (req, user) = try await socialCaller()
        let list = try await PackingService(db: req.db, core: services.core).own(try PathID.parse(raw, "packing list"), of: user.requireID())
        return (req, list)
    }

    private func packingBody(_ list: PackingList, _ req: Request) async throws -> Components.Schemas.PackingList {
        let entries = try await PackingService(db: req.db, core: services.core).entries(of: list)
        let ids = entries.map(\.closetItemID)
        let items = ids.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try await ClosetItem.query(on: req.db).filter(\.$id ~~ ids).all().map { ($0.id!, $0) })
        let present = entries.filter { items[$0.closetItemID] != nil }
        let bodies = try await WardrobeMapping(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).items(present.compactMap { items[$0.closetItemID] })
        return .init(
            id: list.id!.idString, name: list.name, from: list.fromDay, to: list.toDay, outfitIds: list.outfitIDs.map(\.idString),
            items: zip(present, bodies).map { .init(item: $1, packed: $0.packed) }, packedCount: present.filter(\.packed).count)
    }
}
