import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct ClosetItemBody: Decodable {
    struct Money: Decodable { var amount: Int; var currency: String }
    var id: String
    var type: String
    var typeGuessed: Bool
    var colours: [String]
    var price: Money?
    var costPerWear: Money?
    var archived: Bool
    var cutoutStatus: String
    var cutout: ImageBody?
    var photo: ImageBody?
    var wearCount: Int
    var lastWornOn: String?
    var wornOn: [String]?
}

struct ClosetItemListBody: Decodable { var items: [ClosetItemBody]; var nextCursor: String? }

struct OutfitBody: Decodable {
    struct Piece: Decodable { var closetItemId: String?; var x: Double; var y: Double; var scale: Double; var rotation: Double; var z: Int }
    var id: String
    var name: String
    var visibility: String
    var pinned: Bool
    var renderStatus: String
    var image: ImageBody?
    var pieces: [Piece]
    var canEdit: Bool
}

struct CalendarEntryBody: Decodable { var id: String; var outfitId: String; var date: String; var worn: Bool; var warning: String? }

extension TestApp {
    /// A garment photo uploaded as the caller's private media; returns its id.
    func uploadGarment(_ photo: GarmentPhoto, token: String) async throws -> String {
        let response = try await upload(try photo.jpeg().data, contentType: "image/jpeg", token: token)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(ImageBody.self).id
    }

    @discardableResult
    func addCloset(_ json: String, token: String, expect status: HTTPStatus = .created) async throws -> [ClosetItemBody] {
        let response = try await send(.POST, "/api/v1/me/closet/items", json: json, token: token)
        #expect(response.status == status, "\(response.body.string)")
        return status == .created ? try response.content.decode(ClosetItemListBody.self).items : []
    }

    /// An item from a freshly uploaded garment photo, with the given fields (JSON object body).
    func closetItem(_ token: String, type: String, colour: (UInt8, UInt8, UInt8) = (30, 45, 110), shape: GarmentPhoto.Shape = .top, fields: String = "{}") async throws -> ClosetItemBody {
        let media = try await uploadGarment(GarmentPhoto(shape: shape, backdrop: .plain, colour: colour, width: 320, height: 240), token: token)
        var fieldsJSON = fields
        fieldsJSON.removeLast()
        fieldsJSON += (fields == "{}" ? "" : ",") + #""type":"\#(type)"}"#
        return try await addCloset(#"{"photos":[{"mediaId":"\#(media)"}],"fields":\#(fieldsJSON)}"#, token: token)[0]
    }

    func closetItem(_ id: String, token: String) async throws -> ClosetItemBody {
        let response = try await send(.GET, "/api/v1/me/closet/items/\(id)", token: token)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(ClosetItemBody.self)
    }

    /// Runs the wardrobe image queue until nothing is pending (the background worker is off in tests).
    func drawWardrobe() async throws {
        try await WardrobeImageQueue(db: app.db, core: app.core, mediaLibrary: app.atelier.media).drain()
    }

    func wardrobeRowCounts(_ owner: Session) async throws -> [Int] {
        let id = UUID(uuidString: owner.user.id)!
        return [
            try await ClosetItem.query(on: app.db).filter(\.$ownerID == id).count(),
            try await ClosetWear.query(on: app.db).filter(\.$ownerID == id).count(),
            try await Outfit.query(on: app.db).filter(\.$ownerID == id).count(),
            try await OutfitPlan.query(on: app.db).filter(\.$ownerID == id).count(),
        ]
    }
}
