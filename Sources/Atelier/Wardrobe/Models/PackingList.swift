import Fluent
import Foundation

/// What to take on a trip: outfits and single items; every closet item once, checked off as packed.
final class PackingList: Model, @unchecked Sendable {
    static let schema = "packing_lists"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "name") var name: String
    @OptionalField(key: "from_day") var fromDay: String?
    @OptionalField(key: "to_day") var toDay: String?
    @Field(key: "outfit_ids") var outfitIDsList: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    var outfitIDs: [UUID] { outfitIDsList.split(separator: ",").compactMap { UUID(uuidString: String($0)) } }
}

final class PackingEntry: Model, @unchecked Sendable {
    static let schema = "packing_entries"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "list_id") var listID: UUID
    @Field(key: "closet_item_id") var closetItemID: UUID
    @Field(key: "position") var position: Int
    @Field(key: "packed") var packed: Bool

    init() {}
}
