import AtelierServerAPI
import Fluent
import Foundation

/// Wardrobe values as the API shows them. Media rows are read in one query per answer.
struct WardrobeMapping {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    private var media: MediaService { MediaService(db: db, core: core, mediaLibrary: mediaLibrary) }

    func mediaByID(_ ids: [UUID?]) async throws -> [UUID: Media] {
        let wanted = Array(Set(ids.compactMap { $0 }))
        guard !wanted.isEmpty else { return [:] }
        return Dictionary(uniqueKeysWithValues: try await Media.query(on: db).filter(\.$id ~~ wanted).all().map { ($0.id!, $0) })
    }

    func items(_ items: [ClosetItem], wornOn: [UUID: [String]] = [:]) async throws -> [Components.Schemas.ClosetItem] {
        let found = try await mediaByID(items.flatMap { [$0.photoMediaID, $0.cutoutMediaID] })
        let service = media
        return items.map { item in
            Components.Schemas.ClosetItem(
                id: item.id!.idString, _type: item.type, typeGuessed: item.typeGuessed, size: item.size,
                colours: item.colours.map(\.rawValue), pattern: item.pattern, brandId: item.brandID?.idString, brandName: item.brandName,
                seasons: item.seasons.map(\.rawValue), tags: item.tags, notes: item.notes,
                price: item.priceMinor.flatMap { price in item.currency.map { CommerceMapping.money(price, $0) } },
                costPerWear: item.costPerWearMinor.flatMap { cost in item.currency.map { CommerceMapping.money(cost, $0) } },
                purchasedOn: item.purchasedOn, favourite: item.favourite, archived: item.isArchived, archiveReason: item.archiveReason,
                productId: item.productID?.idString, orderLineId: item.orderLineID?.idString,
                photo: item.photoMediaID.flatMap { found[$0] }.map { Components.Schemas.Image($0, service: service) },
                cutout: item.cutoutMediaID.flatMap { found[$0] }.map { Components.Schemas.Image($0, service: service) },
                cutoutStatus: Components.Schemas.ClosetItem.CutoutStatusPayload(rawValue: item.cutoutStatus) ?? .none, wearCount: item.wearCount, lastWornOn: item.lastWornOn,
                wornOn: wornOn[item.id!], createdAt: item.createdAt, updatedAt: item.updatedAt)
        }
    }

    func item(_ item: ClosetItem, wornOn: [String]? = nil) async throws -> Components.Schemas.ClosetItem {
        try await items([item], wornOn: wornOn.map { [item.id!: $0] } ?? [:])[0]
    }

    func outfits(_ outfits: [Outfit], viewerID: UUID) async throws -> [Components.Schemas.Outfit] {
        let own = outfits.filter { $0.ownerID == viewerID }.map { $0.id! }
        let piecesByOutfit = try await OutfitPieces(db: db).pieces(of: own)
        let allPieces = piecesByOutfit.values.flatMap { $0 }
        let itemIDs = allPieces.compactMap(\.closetItemID)
        let items = itemIDs.isEmpty ? [:] : Dictionary(uniqueKeysWithValues: try await ClosetItem.query(on: db).filter(\.$id ~~ itemIDs).all().map { ($0.id!, $0) })
        let productIDs = allPieces.compactMap(\.productID)
        var productPhoto: [UUID: UUID] = [:]
        if !productIDs.isEmpty {
            for photo in try await ProductPhoto.query(on: db).filter(\.$product.$id ~~ productIDs).sort(\.$position, .descending).all() {
                productPhoto[photo.$product.id] = photo.$media.id
            }
        }
        let found = try await mediaByID(outfits.map(\.renderMediaID) + items.values.flatMap { [$0.cutoutMediaID, $0.photoMediaID] } + productPhoto.values.map { $0 })
        let likes = try await OutfitLikes(db: db, core: core, live: live).states(of: outfits.map { $0.id! }, viewer: viewerID)
        let owners = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).peopleByID(Array(Set(outfits.map(\.ownerID))), viewer: viewerID)
        let service = media
        return outfits.map { outfit in
            let pieces = (piecesByOutfit[outfit.id!] ?? []).map { piece -> Components.Schemas.OutfitPiece in
                let pictureID = piece.closetItemID.flatMap { items[$0].flatMap { $0.cutoutMediaID ?? $0.photoMediaID } }
                    ?? piece.productID.flatMap { productPhoto[$0] }
                return .init(
                    closetItemId: piece.closetItemID?.idString, productId: piece.productID?.idString, x: piece.x, y: piece.y,
                    scale: piece.scale, rotation: piece.rotation, z: piece.z,
                    image: pictureID.flatMap { found[$0] }.map { Components.Schemas.Image($0, service: service) })
            }
            return Components.Schemas.Outfit(
                id: outfit.id!.idString, ownerId: outfit.ownerID.idString, owner: owners[outfit.ownerID].map(Components.Schemas.UserSummary.init),
                name: outfit.name, occasion: outfit.occasion,
                visibility: .init(rawValue: outfit.visibility) ?? ._private, favourite: outfit.favourite, pinned: outfit.pinnedPosition != nil,
                image: outfit.renderMediaID.flatMap { found[$0] }.map { Components.Schemas.Image($0, service: service) },
                renderStatus: .init(rawValue: outfit.renderStatus) ?? .pending, pieces: pieces, canEdit: outfit.ownerID == viewerID,
                likeCount: likes[outfit.id!]?.count ?? 0, liked: likes[outfit.id!]?.liked ?? false, createdAt: outfit.createdAt, updatedAt: outfit.updatedAt)
        }
    }

    func outfit(_ outfit: Outfit, viewerID: UUID) async throws -> Components.Schemas.Outfit {
        try await outfits([outfit], viewerID: viewerID)[0]
    }

    static func entry(_ plan: OutfitPlan, warning: String? = nil) -> Components.Schemas.CalendarEntry {
        .init(id: plan.id!.idString, outfitId: plan.outfitID.idString, date: plan.day, note: plan.note, worn: plan.wornAt != nil, warning: warning)
    }
}
