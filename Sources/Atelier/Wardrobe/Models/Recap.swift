import Fluent
import Foundation

/// A month's or year's worn outfits as an animated WebP slideshow, with a share page. Private
/// unless its owner shares it with friends or everyone (the same rules as outfits).
final class Recap: Model, @unchecked Sendable {
    static let schema = "wardrobe_recaps"
    static let mediaOwnerType = "wardrobe_recap"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    /// "2026-11" or "2026".
    @Field(key: "period") var period: String
    @Field(key: "from_day") var fromDay: String
    @Field(key: "to_day") var toDay: String
    @Field(key: "media_id") var mediaID: UUID
    @Field(key: "frame_count") var frameCount: Int
    @Field(key: "outfit_ids") var outfitIDsList: String
    @Field(key: "visibility") var visibility: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    var outfitIDs: [UUID] { outfitIDsList.split(separator: ",").compactMap { UUID(uuidString: String($0)) } }
}
