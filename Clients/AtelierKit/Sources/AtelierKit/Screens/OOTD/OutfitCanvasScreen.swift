import AtelierAPI
import Foundation
import Observation

/// OOTD's outfit canvas: closet pieces (or products) laid out on a board, each with a position
/// (0…1 of the canvas), a scale, a rotation and a stacking order, then saved as an outfit. The
/// view draws `pieces` in `z` order and reports drags and pinches; `save()` creates the outfit the
/// first time and updates it after.
@MainActor
@Observable
public final class OutfitCanvasScreen {
    public typealias Piece = Components.Schemas.OutfitPieceInput
    public static let maxPieces = 20
    /// How small and how large a piece may be, as a fraction of the canvas's width.
    public static let scales = 0.02...2.0

    public var name: String
    public var occasion: Components.Schemas.OutfitInput.OccasionPayload?
    public var visibility: Components.Schemas.OutfitInput.VisibilityPayload
    public private(set) var pieces: [Piece]
    /// The outfit as last saved (with its rendered image once the server made it).
    public private(set) var outfit: Components.Schemas.Outfit?
    public let activity = ScreenActivity()
    private let session: AtelierSession

    /// A new, empty canvas.
    public init(session: AtelierSession, name: String = "", visibility: Components.Schemas.OutfitInput.VisibilityPayload = ._private) {
        self.session = session
        (self.name, self.visibility, self.pieces) = (name, visibility, [])
    }

    /// An outfit to edit, as saved.
    public init(session: AtelierSession, editing outfit: Components.Schemas.Outfit) {
        self.session = session
        self.outfit = outfit
        name = outfit.name
        occasion = outfit.occasion.flatMap { .init(rawValue: $0) }
        visibility = .init(rawValue: outfit.visibility.rawValue) ?? ._private
        pieces = Self.pieces(of: outfit)
    }

    private static func pieces(of outfit: Components.Schemas.Outfit) -> [Piece] {
        outfit.pieces.map {
            Piece(closetItemId: $0.closetItemId, productId: $0.productId, x: $0.x, y: $0.y, scale: $0.scale, rotation: $0.rotation, z: $0.z)
        }
    }

    public var isFull: Bool { pieces.count >= Self.maxPieces }

    /// Lays a closet item on the board; nothing when it is full. Without a place, the server puts it
    /// where its kind goes (a top above trousers, shoes at the bottom) when the outfit is saved.
    public func add(closetItemID: String, at place: (x: Double, y: Double)? = nil) {
        guard !isFull else { return }
        pieces.append(Piece(closetItemId: closetItemID, x: place?.x, y: place?.y))
    }

    public func move(_ index: Int, x: Double, y: Double) {
        guard pieces.indices.contains(index) else { return }
        pieces[index].x = min(max(x, 0), 1)
        pieces[index].y = min(max(y, 0), 1)
    }

    public func transform(_ index: Int, scale: Double, rotation: Double) {
        guard pieces.indices.contains(index) else { return }
        pieces[index].scale = min(max(scale, Self.scales.lowerBound), Self.scales.upperBound)
        pieces[index].rotation = rotation
    }

    public func bringToFront(_ index: Int) {
        guard pieces.indices.contains(index) else { return }
        pieces[index].z = (pieces.map { $0.z ?? 0 }.max() ?? 0) + 1
    }

    public func remove(_ index: Int) {
        guard pieces.indices.contains(index) else { return }
        pieces.remove(at: index)
    }

    public func save() async {
        let input = Components.Schemas.OutfitInput(
            name: name, occasion: occasion, visibility: visibility, pieces: pieces)
        let existing = outfit?.id
        guard let saved = await activity.run({ [session] in
            if let existing { return try await session.wardrobe.updateOutfit(outfitId: existing, input) }
            return try await session.wardrobe.createOutfit(input)
        }) else { return }
        outfit = saved
        pieces = Self.pieces(of: saved)
    }
}
