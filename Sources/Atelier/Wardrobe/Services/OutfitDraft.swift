import Fluent
import Foundation

/// An outfit as a person sends it: its pieces and where they sit. Validated whole before
/// anything is written; every problem comes back in one 422.
struct OutfitDraft: Sendable {
    struct Piece: Sendable {
        var closetItemID: UUID?
        var productID: UUID?
        var x: Double?
        var y: Double?
        var scale: Double?
        var rotation: Double?
        var z: Int?
    }

    var name: String?
    var occasion: String??
    var visibility: String?
    var favourite: Bool?
    var pieces: [Piece]?

    static let maxPieces = 20
    static let xRange = -0.5...1.5
    static let scaleRange = 0.02...2.0
    static let rotationRange = -360.0...360.0
    static let zRange = 0...1000

    /// Where a piece goes when the layout does not say: by the garment's slot, as a flat lay (an
    /// outer layer beside and behind the top, so both show).
    static func defaultPlacement(_ slot: ClosetItem.Slot?) -> (x: Double, y: Double, scale: Double, z: Int) {
        switch slot {
        case .outer: (0.3, 0.34, 0.5, 0)
        case .top: (0.62, 0.28, 0.46, 2)
        case .bottom: (0.56, 0.66, 0.36, 1)
        case .dress: (0.55, 0.45, 0.5, 2)
        case .shoes: (0.5, 0.91, 0.28, 3)
        case .bag: (0.85, 0.62, 0.26, 4)
        case .accessory, nil: (0.15, 0.12, 0.2, 5)
        }
    }

    /// Checks the draft against the owner's closet and the catalog and applies it to `outfit`;
    /// the pieces come back unsaved (the caller writes them in its transaction).
    func apply(to outfit: Outfit, ownerID: UUID, on db: any Database) async throws -> [OutfitPiece]? {
        var errors = FieldErrors()
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.count > 80 { errors.add("name", "must be 1 to 80 characters") }
        }
        if let occasion = occasion ?? nil, Outfit.Occasion(rawValue: occasion) == nil {
            errors.add("occasion", "is not an occasion; use one of \(Outfit.Occasion.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let visibility, Outfit.Visibility(rawValue: visibility) == nil {
            errors.add("visibility", "must be private, friends or public")
        }
        var built: [OutfitPiece]?
        if let pieces {
            if pieces.isEmpty || pieces.count > Self.maxPieces { errors.add("pieces", "an outfit has 1 to \(Self.maxPieces) pieces") }
            let itemIDs = pieces.compactMap(\.closetItemID)
            let items = itemIDs.isEmpty ? [] : try await ClosetItem.query(on: db).filter(\.$id ~~ itemIDs).filter(\.$ownerID == ownerID).all()
            let itemsByID = Dictionary(uniqueKeysWithValues: items.map { ($0.id!, $0) })
            let productIDs = pieces.compactMap(\.productID)
            let products = productIDs.isEmpty ? Set<UUID>() : Set(try await Product.query(on: db).filter(\.$id ~~ productIDs)
                .filter(\.$status == Product.Status.active.rawValue).all().map { $0.id! })
            if Set(itemIDs).count != itemIDs.count || Set(productIDs).count != productIDs.count {
                errors.add("pieces", "each item or product appears once")
            }
            var result: [OutfitPiece] = []
            for (index, input) in pieces.enumerated() {
                let field = "pieces[\(index)]"
                var slot: ClosetItem.Slot?
                switch (input.closetItemID, input.productID) {
                case (let itemID?, nil):
                    if let item = itemsByID[itemID] { slot = item.kind.slot }
                    else { errors.add("\(field).closetItemId", "is not an item in your closet") }
                case (nil, let productID?):
                    if !products.contains(productID) { errors.add("\(field).productId", "is not an active product") }
                default:
                    errors.add(field, "names either a closetItemId or a productId")
                }
                let placement = Self.defaultPlacement(slot)
                let x = input.x ?? placement.x, y = input.y ?? placement.y, scale = input.scale ?? placement.scale
                let rotation = input.rotation ?? 0, z = input.z ?? placement.z
                if !x.isFinite || !Self.xRange.contains(x) { errors.add("\(field).x", "must be between -0.5 and 1.5 (fractions of the canvas)") }
                if !y.isFinite || !Self.xRange.contains(y) { errors.add("\(field).y", "must be between -0.5 and 1.5 (fractions of the canvas)") }
                if !scale.isFinite || !Self.scaleRange.contains(scale) { errors.add("\(field).scale", "must be between 0.02 and 2") }
                if !rotation.isFinite || !Self.rotationRange.contains(rotation) { errors.add("\(field).rotation", "must be between -360 and 360 degrees") }
                if !Self.zRange.contains(z) { errors.add("\(field).z", "must be between 0 and 1000") }
                let piece = OutfitPiece()
                piece.position = index
                piece.closetItemID = input.closetItemID
                piece.productID = input.productID
                (piece.x, piece.y, piece.scale, piece.rotation, piece.z) = (x, y, scale, rotation, z)
                result.append(piece)
            }
            built = result
        }
        try errors.throwIfAny()
        if let name { outfit.name = name.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let occasion { outfit.occasion = occasion }
        if let visibility { outfit.visibility = visibility }
        if let favourite { outfit.favourite = favourite }
        return built
    }
}
