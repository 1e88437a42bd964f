import Fluent
import Foundation

/// A garment in someone's closet. Private to its owner: outfits share their rendered image, not
/// the items. `wearCount` always equals the number of its `ClosetWear` rows (one per local date),
/// kept in the same transaction that adds or removes a wear.
final class ClosetItem: Model, @unchecked Sendable {
    static let schema = "closet_items"
    /// `Media.ownerType` of the item's photo, device mask and cut-out.
    static let mediaOwnerType = "closet_item"

    enum Kind: String, CaseIterable, Codable, Sendable {
        case top, shirt, tShirt = "t-shirt", sweater, jacket, coat, pants, jeans, shorts, skirt, dress, shoes, bag, accessory

        /// Where the garment goes on a body: outfits and the mannequin are built by slot.
        var slot: Slot {
            switch self {
            case .jacket, .coat: .outer
            case .top, .shirt, .tShirt, .sweater: .top
            case .pants, .jeans, .shorts, .skirt: .bottom
            case .dress: .dress
            case .shoes: .shoes
            case .bag: .bag
            case .accessory: .accessory
            }
        }
    }

    enum Slot: String, CaseIterable, Sendable { case outer, top, bottom, dress, shoes, bag, accessory }

    enum Season: String, CaseIterable, Codable, Sendable { case spring, summer, autumn, winter }

    enum ArchiveReason: String, CaseIterable, Codable, Sendable { case donated, sold, wornOut = "worn-out" }

    enum CutoutStatus: String, Sendable { case none, pending, ready, failed }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "type") var type: String
    /// True while the type is the cut-out's guess from the garment's shape, not the owner's word.
    @Field(key: "type_guessed") var typeGuessed: Bool
    @OptionalField(key: "size") var size: String?
    /// Palette names (`ColourName`), most prominent first; comma-separated.
    @Field(key: "colours") var coloursList: String
    /// Set once the owner edits the colours: a later cut-out then leaves them alone.
    @Field(key: "colours_edited") var coloursEdited: Bool
    @OptionalField(key: "pattern") var pattern: String?
    @OptionalField(key: "brand_id") var brandID: UUID?
    @OptionalField(key: "brand_name") var brandName: String?
    @Field(key: "seasons") var seasonsList: String
    @Field(key: "tags") var tagsList: String
    @Field(key: "notes") var notes: String
    @OptionalField(key: "price_minor") var priceMinor: Int?
    @OptionalField(key: "currency") var currency: String?
    @OptionalField(key: "purchased_on") var purchasedOn: String?
    @Field(key: "favourite") var favourite: Bool
    @OptionalField(key: "archived_at") var archivedAt: Date?
    @OptionalField(key: "archive_reason") var archiveReason: String?
    @OptionalField(key: "product_id") var productID: UUID?
    @OptionalField(key: "order_line_id") var orderLineID: UUID?
    @OptionalField(key: "photo_media_id") var photoMediaID: UUID?
    @OptionalField(key: "mask_media_id") var maskMediaID: UUID?
    @OptionalField(key: "cutout_media_id") var cutoutMediaID: UUID?
    @Field(key: "cutout_status") var cutoutStatus: String
    @OptionalField(key: "cutout_claimed_at") var cutoutClaimedAt: Date?
    @Field(key: "cutout_attempts") var cutoutAttempts: Int
    @Field(key: "wear_count") var wearCount: Int
    @OptionalField(key: "last_worn_on") var lastWornOn: String?
    /// Brand, tags and notes, lower-cased: what free-text search reads.
    @Field(key: "search_text") var searchText: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var kind: Kind { Kind(rawValue: type) ?? .accessory }
    var colours: [ColourName] { coloursList.split(separator: ",").compactMap { ColourName(rawValue: String($0)) } }
    var seasons: [Season] { seasonsList.split(separator: ",").compactMap { Season(rawValue: String($0)) } }
    var tags: [String] { tagsList.split(separator: ",").map(String.init) }
    var isArchived: Bool { archivedAt != nil }

    /// Price ÷ max(wears, 1) in minor units; nil without a price.
    var costPerWearMinor: Int? { priceMinor.map { Int((Double($0) / Double(max(wearCount, 1))).rounded()) } }

    /// The seasons the owner gave, or those the garment type suits.
    var effectiveSeasons: Set<Season> {
        let given = seasons
        if !given.isEmpty { return Set(given) }
        switch kind {
        case .coat, .sweater: return [.autumn, .winter]
        case .shorts: return [.summer]
        case .jacket: return [.spring, .autumn, .winter]
        default: return Set(Season.allCases)
        }
    }

    func refreshSearchText() {
        searchText = [brandName ?? "", tagsList.replacingOccurrences(of: ",", with: " "), notes].joined(separator: " ").lowercased()
    }
}

/// One day an item was worn, as a date in the wearer's zone when they logged it.
final class ClosetWear: Model, @unchecked Sendable {
    static let schema = "closet_wears"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "item_id") var itemID: UUID
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "worn_on") var wornOn: String
    @OptionalField(key: "outfit_id") var outfitID: UUID?
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
