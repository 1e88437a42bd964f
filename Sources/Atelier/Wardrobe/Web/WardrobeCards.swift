import Fluent
import Foundation
import Vapor

/// Closet items and outfits as the web pages show them.
struct ClosetCard: Encodable, Sendable {
    var id: String
    var url: String
    var type: String
    var colours: String
    var status: String
    /// The transparent cut-out (WebP) once ready, else the photo.
    var src: String?
    var image: WebImage?
    var wearCount: Int
    var lastWornOn: String?

    static func cards(_ items: [ClosetItem], req: Request) async throws -> [ClosetCard] {
        let mapping = WardrobeMapping(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media)
        let media = try await mapping.mediaByID(items.flatMap { [$0.photoMediaID, $0.cutoutMediaID] })
        let service = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        return items.map { item in
            let picture = (item.cutoutMediaID ?? item.photoMediaID).flatMap { media[$0] }
            return ClosetCard(
                id: item.id!.idString, url: "/closet/items/\(item.id!.idString)", type: item.type,
                colours: item.colours.map(\.label).joined(separator: ", "), status: item.cutoutStatus,
                src: picture.flatMap { Self.transparentURL($0, service: service) },
                image: WebImage(picture, alt: "\(item.colours.first?.label ?? "") \(item.type)", service: service, preferredWidth: 270),
                wearCount: item.wearCount, lastWornOn: item.lastWornOn)
        }
    }

    /// The smallest WebP at least 270 px wide (cut-outs keep their transparency in WebP).
    static func transparentURL(_ media: Media, service: MediaService) -> String? {
        let webps = service.imageURLs(media).filter { $0.0.format == "webp" }.sorted { $0.0.width < $1.0.width }
        return (webps.first { $0.0.width >= 270 } ?? webps.last)?.1
    }
}

struct OutfitCard: Encodable, Sendable {
    var id: String
    var url: String
    var name: String
    var occasion: String?
    var visibility: String
    var status: String
    var image: WebImage?
    var pinned: Bool
    var likeCount: Int
    /// Whether the person looking likes it; the heart is theirs to press only on others' outfits.
    var liked: Bool
    var mine: Bool
    var ownerName: String
    var ownerURL: String

    static func cards(_ outfits: [Outfit], req: Request) async throws -> [OutfitCard] {
        let viewerID = req.webSessionUser?.id
        let media = try await WardrobeMapping(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).mediaByID(outfits.map(\.renderMediaID))
        var likes: [UUID: OutfitLikes.State] = [:]
        if let viewerID { likes = try await OutfitLikes(db: req.db, core: req.core, live: req.atelier.live).states(of: outfits.map { $0.id! }, viewer: viewerID) }
        let owners = try await User.query(on: req.db).filter(\.$id ~~ Array(Set(outfits.map(\.ownerID)))).all()
        let ownerNames = Dictionary(uniqueKeysWithValues: owners.map { ($0.id!, $0.displayName) })
        let service = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        return outfits.map { outfit in
            OutfitCard(
                id: outfit.id!.idString, url: "/outfits/\(outfit.id!.idString)", name: outfit.name,
                occasion: outfit.occasion, visibility: outfit.visibility, status: outfit.renderStatus,
                image: WebImage(outfit.renderMediaID.flatMap { media[$0] }, alt: outfit.name, service: service, preferredWidth: 540),
                pinned: outfit.pinnedPosition != nil, likeCount: likes[outfit.id!]?.count ?? 0, liked: likes[outfit.id!]?.liked ?? false,
                mine: outfit.ownerID == viewerID, ownerName: ownerNames[outfit.ownerID] ?? "",
                ownerURL: "/people/\(outfit.ownerID.idString)")
        }
    }
}
