import Fluent
import Foundation
import SQLKit

/// Packing lists: outfits and items for a trip. An item in several of the outfits is listed once.
struct PackingService {
    let db: any Database
    let core: CoreServices

    static let maxItems = 100

    func create(ownerID: UUID, name: String, from: String?, to: String?, outfitIDs: [UUID], itemIDs: [UUID]) async throws -> PackingList {
        var errors = FieldErrors()
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > 80 { errors.add("name", "must be 1 to 80 characters") }
        let fromDay = try from.map { raw -> LocalDay in
            guard let day = LocalDay(raw) else { throw Problem.invalid("from", "is not a date that exists (YYYY-MM-DD)") }
            return day
        }
        let toDay = try to.map { raw -> LocalDay in
            guard let day = LocalDay(raw) else { throw Problem.invalid("to", "is not a date that exists (YYYY-MM-DD)") }
            return day
        }
        if let fromDay, let toDay, toDay < fromDay { errors.add("to", "is before from") }
        let outfits = outfitIDs.isEmpty ? [] : try await Outfit.query(on: db).filter(\.$id ~~ outfitIDs).filter(\.$ownerID == ownerID).all()
        for (index, id) in outfitIDs.enumerated() where !outfits.contains(where: { $0.id == id }) {
            errors.add("outfitIds[\(index)]", "is not one of your outfits")
        }
        let items = itemIDs.isEmpty ? [] : try await ClosetItem.query(on: db).filter(\.$id ~~ itemIDs).filter(\.$ownerID == ownerID).all()
        for (index, id) in itemIDs.enumerated() where !items.contains(where: { $0.id == id }) {
            errors.add("closetItemIds[\(index)]", "is not an item in your closet")
        }
        if outfitIDs.isEmpty && itemIDs.isEmpty { errors.add("outfitIds", "give at least one outfit or item") }
        try errors.throwIfAny()

        var ordered: [UUID] = []
        let pieces = try await OutfitPieces(db: db).pieces(of: outfitIDs)
        for outfitID in outfitIDs {
            for itemID in (pieces[outfitID] ?? []).compactMap(\.closetItemID) where !ordered.contains(itemID) { ordered.append(itemID) }
        }
        for itemID in itemIDs where !ordered.contains(itemID) { ordered.append(itemID) }
        guard ordered.count <= Self.maxItems else { throw Problem.invalid("closetItemIds", "at most \(Self.maxItems) items on a list") }

        let now = core.clock.now()
        let list = PackingList()
        list.id = .v7(at: now)
        list.ownerID = ownerID
        list.name = name
        list.fromDay = fromDay?.description
        list.toDay = toDay?.description
        list.outfitIDsList = outfitIDs.map(\.idString).joined(separator: ",")
        list.createdAt = now
        let entries = ordered
        try await core.writeTransaction(on: db) { tx in
            try await list.create(on: tx)
            for (position, itemID) in entries.enumerated() {
                let entry = PackingEntry()
                entry.id = UUID()
                entry.listID = list.id!
                entry.closetItemID = itemID
                entry.position = position
                entry.packed = false
                try await entry.create(on: tx)
            }
        }
        return list
    }

    func own(_ id: UUID, of ownerID: UUID) async throws -> PackingList {
        guard let list = try await PackingList.find(id, on: db), list.ownerID == ownerID else { throw Problem.notFound("packing list") }
        return list
    }

    func entries(of list: PackingList) async throws -> [PackingEntry] {
        try await PackingEntry.query(on: db).filter(\.$listID == list.requireID()).sort(\.$position).all()
    }

    /// Checks an item off (or back on); 404 when it is not on the list.
    func setPacked(_ list: PackingList, itemID: UUID, _ packed: Bool) async throws {
        let listID = try list.requireID()
        let changed = try await core.writeTransaction(on: db) { tx in
            try await tx.sql.raw("""
                UPDATE \(ident: PackingEntry.schema) SET packed = \(bind: packed) WHERE list_id = \(bind: listID) AND closet_item_id = \(bind: itemID) RETURNING id
                """).all()
        }
        guard !changed.isEmpty else { throw Problem.notFound("packing list item") }
    }

    func lists(of ownerID: UUID) async throws -> [PackingList] {
        try await PackingList.query(on: db).filter(\.$ownerID == ownerID).sort(\.$id, .descending).limit(100).all()
    }

    func delete(_ list: PackingList) async throws {
        try await core.writeTransaction(on: db) { tx in try await list.delete(on: tx) }
    }
}
