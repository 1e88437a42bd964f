import Fluent
import Foundation

/// A combination of closet items (and catalog products the person wants), laid out on a canvas.
/// The server renders its image from the cut-outs whenever pieces or layout change
/// (`renderStatus` goes back to pending in the same transaction; the wardrobe image queue draws it).
final class Outfit: Model, @unchecked Sendable {
    static let schema = "outfits"
    static let mediaOwnerType = "outfit"
    static let maxPinned = 6

    enum Occasion: String, CaseIterable, Codable, Sendable { case work, casual, party, sport, formal, date, travel }
    enum Visibility: String, CaseIterable, Codable, Sendable { case `private`, friends, `public` }
    enum RenderStatus: String, Sendable { case pending, ready, failed }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "name") var name: String
    @OptionalField(key: "occasion") var occasion: String?
    @Field(key: "visibility") var visibility: String
    @Field(key: "favourite") var favourite: Bool
    /// 1…6 when pinned to the profile, in that order.
    @OptionalField(key: "pinned_position") var pinnedPosition: Int?
    @OptionalField(key: "render_media_id") var renderMediaID: UUID?
    @Field(key: "render_status") var renderStatus: String
    @OptionalField(key: "render_claimed_at") var renderClaimedAt: Date?
    @Field(key: "render_attempts") var renderAttempts: Int
    /// Goes up with every change that makes the picture out of date; a drawing is kept only if
    /// no change came while it was being drawn.
    @Field(key: "render_version") var renderVersion: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// One piece of an outfit and where it sits on the canvas (`OutfitCanvas`): `x`, `y` are the
/// piece's centre and `scale` its width, as fractions of the canvas width; `rotation` in degrees
/// clockwise; higher `z` on top.
final class OutfitPiece: Model, @unchecked Sendable {
    static let schema = "outfit_pieces"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "outfit_id") var outfitID: UUID
    @Field(key: "position") var position: Int
    @OptionalField(key: "closet_item_id") var closetItemID: UUID?
    @OptionalField(key: "product_id") var productID: UUID?
    @Field(key: "x") var x: Double
    @Field(key: "y") var y: Double
    @Field(key: "scale") var scale: Double
    @Field(key: "rotation") var rotation: Double
    @Field(key: "z") var z: Int

    init() {}
}

/// A calendar entry: an outfit planned for (or worn on) a local date, with an optional note.
final class OutfitPlan: Model, @unchecked Sendable {
    static let schema = "outfit_plans"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "day") var day: String
    @Field(key: "outfit_id") var outfitID: UUID
    @Field(key: "note") var note: String
    @OptionalField(key: "worn_at") var wornAt: Date?
    /// When the morning reminder for this plan went to the owner's inbox (once, at 07:00 local).
    @OptionalField(key: "reminded_at") var remindedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
