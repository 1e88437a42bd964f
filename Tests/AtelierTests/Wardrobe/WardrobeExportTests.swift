import Fluent
import Foundation
import Testing
import VaporTesting
import ZIPFoundation

@testable import Atelier

@Suite("Wardrobe: data export")
struct WardrobeExportTests {
    @Test("the data export carries the closet (with photos and cut-outs), outfits with their layouts, the calendar and the outfits liked")
    func export() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let item = try await t.closetItem(s.accessToken, type: "coat", fields: #"{"notes":"from grandma","price":{"amount":90000,"currency":"SEK"}}"#)
            try await t.drawWardrobe()
            let outfit = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"Sunday","pieces":[{"closetItemId":"\#(item.id)","x":0.4,"y":0.5,"scale":0.6}]}"#, token: s.accessToken)
                .content.decode(OutfitBody.self)
            try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-12-24","note":"Christmas Eve"}"#, token: s.accessToken)
            try await t.send(.POST, "/api/v1/me/closet/items/\(item.id)/wears?date=2026-11-01", token: s.accessToken)
            let friend = try await t.signUp()
            try await t.befriend(s, friend)
            let theirs = try await t.closetItem(friend.accessToken, type: "dress")
            let liked = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"Friend's","visibility":"friends","pieces":[{"closetItemId":"\#(theirs.id)"}]}"#, token: friend.accessToken)
                .content.decode(OutfitBody.self)
            #expect(try await t.send(.PUT, "/api/v1/outfits/\(liked.id)/like", token: s.accessToken).status == .ok)

            let response = try await t.send(.GET, "/api/v1/me/export", token: s.accessToken)
            #expect(response.status == .ok)
            let archive = try Archive(data: Data(buffer: response.body), accessMode: .read)
            func text(_ name: String) throws -> String {
                let entry = try #require(archive["atelier-export/\(name)"], "\(name) is missing")
                var data = Data()
                _ = try archive.extract(entry) { data.append($0) }
                return String(decoding: data, as: UTF8.self)
            }
            let closet = try text("closet.json")
            #expect(closet.contains("from grandma") && closet.contains("2026-11-01") && closet.contains("90000"))
            let outfits = try text("outfits.json")
            #expect(outfits.contains("Sunday") && outfits.contains("0.6"))
            #expect(try text("calendar.json").contains("Christmas Eve"))
            #expect(try text("outfit-likes.json").contains(liked.id))
            let files = archive.map(\.path).filter { $0.hasPrefix("atelier-export/photos/closet/\(item.id)") }
            #expect(files.count == 2, "the photo and the cut-out: \(files)")
        }
    }
}
