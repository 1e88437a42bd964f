import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: packing lists")
struct PackingTests {
    @Test("a trip's list holds each item of its outfits once; items are checked off; others get 404; bad input writes nothing")
    func packing() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let other = try await t.signUp()
            let shirt = try await t.closetItem(s.accessToken, type: "shirt")
            let jeans = try await t.closetItem(s.accessToken, type: "jeans", shape: .trousers)
            let dress = try await t.closetItem(s.accessToken, type: "dress", shape: .dress)
            let scarf = try await t.closetItem(s.accessToken, type: "accessory")
            func outfit(_ ids: [String]) async throws -> String {
                let pieces = ids.map { #"{"closetItemId":"\#($0)"}"# }.joined(separator: ",")
                return try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"Trip","pieces":[\#(pieces)]}"#, token: s.accessToken)
                    .content.decode(OutfitBody.self).id
            }
            let day = try await outfit([shirt.id, jeans.id])
            let evening = try await outfit([dress.id, jeans.id])
            struct List: Decodable {
                struct Entry: Decodable { var item: ClosetItemBody; var packed: Bool }
                var id: String
                var items: [Entry]
                var packedCount: Int
            }
            let created = try await t.send(.POST, "/api/v1/me/packing-lists",
                json: #"{"name":"Lisbon","from":"2026-12-01","to":"2026-12-04","outfitIds":["\#(day)","\#(evening)"],"closetItemIds":["\#(scarf.id)"]}"#,
                token: s.accessToken)
            #expect(created.status == .created, "\(created.body.string)")
            let list = try created.content.decode(List.self)
            #expect(list.items.map(\.item.id) == [shirt.id, jeans.id, dress.id, scarf.id], "jeans once, in outfit order")
            let packed = try await t.send(.PUT, "/api/v1/me/packing-lists/\(list.id)/items/\(jeans.id)/packed", token: s.accessToken)
            #expect(try packed.content.decode(List.self).packedCount == 1)
            #expect(try await t.send(.PUT, "/api/v1/me/packing-lists/\(list.id)/items/\(jeans.id)/packed", token: other.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/me/packing-lists/\(list.id)", token: other.accessToken).status == .notFound)
            let unpacked = try await t.send(.DELETE, "/api/v1/me/packing-lists/\(list.id)/items/\(jeans.id)/packed", token: s.accessToken)
            #expect(try unpacked.content.decode(List.self).packedCount == 0)

            let before = try await PackingList.query(on: t.app.db).count()
            let bad = try await t.send(.POST, "/api/v1/me/packing-lists",
                json: #"{"name":"x","from":"2026-12-05","to":"2026-12-01","outfitIds":["\#(day)"],"closetItemIds":["\#(try await t.closetItem(other.accessToken, type: "top").id)"]}"#,
                token: s.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(try bad.problem().fields) == ["to", "closetItemIds[0]"])
            #expect(try await PackingList.query(on: t.app.db).count() == before)
        }
    }
}
