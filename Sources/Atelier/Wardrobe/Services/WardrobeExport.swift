import Fluent
import Foundation

/// The wardrobe part of "export my data": the closet (with each item's original photo and
/// cut-out), outfits with their layouts, the calendar, wears, packing lists, the size profile and
/// the outfits the person liked.
struct WardrobeExport {
    struct ItemEntry: Encodable {
        var id: String
        var type: String
        var size: String?
        var colours: [String]
        var pattern: String?
        var brand: String?
        var seasons: [String]
        var tags: [String]
        var notes: String
        var priceMinor: Int?
        var currency: String?
        var purchasedOn: String?
        var favourite: Bool
        var archivedAt: Date?
        var archiveReason: String?
        var productID: String?
        var wornOn: [String]
        var photo: String?
        var cutout: String?
        var createdAt: Date
    }

    struct PieceEntry: Encodable {
        var closetItemID: String?
        var productID: String?
        var x, y, scale, rotation: Double
        var z: Int
    }

    struct OutfitEntry: Encodable {
        var id: String
        var name: String
        var occasion: String?
        var visibility: String
        var favourite: Bool
        var pinned: Bool
        var pieces: [PieceEntry]
        var createdAt: Date
    }

    struct CalendarEntry: Encodable {
        var date: String
        var outfitID: String
        var note: String
        var wornAt: Date?
    }

    struct PackingEntry: Encodable {
        var name: String
        var from: String?
        var to: String?
        var items: [String]
        var packed: [String]
    }

    struct LikeEntry: Encodable {
        var outfitID: String
        var likedAt: Date
    }

    let db: any Database

    /// The wardrobe's part of "export my data": closet, outfits, wears, plans, with their photos.
    static func register(in parts: AccountParts) {
        parts.onExport { userID, encoder, db in
            let collected = try await WardrobeExport(db: db).collect(for: userID, encoder: encoder)
            return .init(files: collected.files, photos: collected.photos)
        }
    }

    func collect(for userID: UUID, encoder: JSONEncoder) async throws -> (files: [(String, Data)], photos: [AccountParts.ExportedPhoto]) {
        let items = try await ClosetItem.query(on: db).filter(\.$ownerID == userID).sort(\.$id).all()
        let wears = Dictionary(grouping: try await ClosetWear.query(on: db).filter(\.$ownerID == userID).sort(\.$wornOn).all(), by: \.itemID)
        let mediaIDs = items.flatMap { [$0.photoMediaID, $0.cutoutMediaID].compactMap { $0 } }
        let media = mediaIDs.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try await Media.query(on: db).filter(\.$id ~~ mediaIDs).all().map { ($0.id!, $0) })
        var photos: [AccountParts.ExportedPhoto] = []
        func copy(_ id: UUID?, as name: String) -> String? {
            guard let id, let original = media[id] else { return nil }
            let path = "photos/closet/\(name).\((original.originalKey as NSString).pathExtension)"
            photos.append(.init(path: path, key: original.originalKey))
            return path
        }
        let itemEntries = items.map { item in
            ItemEntry(
                id: item.id!.idString, type: item.type, size: item.size, colours: item.colours.map(\.rawValue), pattern: item.pattern, brand: item.brandName,
                seasons: item.seasons.map(\.rawValue), tags: item.tags, notes: item.notes, priceMinor: item.priceMinor, currency: item.currency,
                purchasedOn: item.purchasedOn, favourite: item.favourite, archivedAt: item.archivedAt, archiveReason: item.archiveReason,
                productID: item.productID?.idString, wornOn: (wears[item.id!] ?? []).map(\.wornOn),
                photo: copy(item.photoMediaID, as: "\(item.id!.idString)-photo"), cutout: copy(item.cutoutMediaID, as: "\(item.id!.idString)-cutout"),
                createdAt: item.createdAt)
        }
        let outfits = try await Outfit.query(on: db).filter(\.$ownerID == userID).sort(\.$id).all()
        let pieces = try await OutfitPieces(db: db).pieces(of: outfits.map { $0.id! })
        let outfitEntries = outfits.map { outfit in
            OutfitEntry(
                id: outfit.id!.idString, name: outfit.name, occasion: outfit.occasion, visibility: outfit.visibility, favourite: outfit.favourite,
                pinned: outfit.pinnedPosition != nil,
                pieces: (pieces[outfit.id!] ?? []).map {
                    PieceEntry(closetItemID: $0.closetItemID?.idString, productID: $0.productID?.idString, x: $0.x, y: $0.y, scale: $0.scale, rotation: $0.rotation, z: $0.z)
                },
                createdAt: outfit.createdAt)
        }
        let calendar = try await OutfitPlan.query(on: db).filter(\.$ownerID == userID).sort(\.$day).all()
            .map { CalendarEntry(date: $0.day, outfitID: $0.outfitID.idString, note: $0.note, wornAt: $0.wornAt) }
        var packing: [PackingEntry] = []
        for list in try await PackingList.query(on: db).filter(\.$ownerID == userID).sort(\.$id).all() {
            let entries = try await Atelier.PackingEntry.query(on: db).filter(\.$listID == list.requireID()).sort(\.$position).all()
            packing.append(PackingEntry(name: list.name, from: list.fromDay, to: list.toDay, items: entries.map(\.closetItemID.idString),
                packed: entries.filter(\.packed).map(\.closetItemID.idString)))
        }
        var files: [(String, Data)] = [
            ("closet.json", try encoder.encode(itemEntries)),
            ("outfits.json", try encoder.encode(outfitEntries)),
            ("calendar.json", try encoder.encode(calendar)),
            ("packing-lists.json", try encoder.encode(packing)),
            ("outfit-likes.json", try encoder.encode(try await OutfitLike.query(on: db).filter(\.$userID == userID).sort(\.$createdAt).all()
                .map { LikeEntry(outfitID: $0.outfitID.idString, likedAt: $0.createdAt) })),
        ]
        if let profile = try await SizeProfile.query(on: db).filter(\.$userID == userID).first() {
            files.append(("size-profile.json", try encoder.encode(Self.profileEntry(profile))))
        }
        return (files, photos)
    }

    struct ProfileEntry: Encodable {
        var units: String
        var heightCm, chestCm, waistCm, hipsCm, inseamCm, shoeSizeEU: Double?
        var preferredSizes: [String: String]
        var styles: [String]
        var colours: [String]
    }

    static func profileEntry(_ profile: SizeProfile) -> ProfileEntry {
        ProfileEntry(
            units: profile.units, heightCm: profile.heightCm, chestCm: profile.chestCm, waistCm: profile.waistCm, hipsCm: profile.hipsCm,
            inseamCm: profile.inseamCm, shoeSizeEU: profile.shoeSizeEU, preferredSizes: profile.preferredSizes, styles: profile.styles,
            colours: profile.colours.map(\.rawValue))
    }
}
