import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: outfits, their pictures, pins, the calendar and suggestions")
struct OutfitTests {
    private func createOutfit(_ t: TestApp, _ token: String, _ json: String, expect status: HTTPStatus = .created) async throws -> OutfitBody? {
        let response = try await t.send(.POST, "/api/v1/me/outfits", json: json, token: token)
        #expect(response.status == status, "\(response.body.string)")
        return status == .created ? try response.content.decode(OutfitBody.self) : nil
    }

    @Test("the outfit picture is drawn at the layout's positions (pixels sampled), and drawn again when the layout changes")
    func rendering() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let red = try await t.closetItem(s.accessToken, type: "top", colour: (200, 30, 30), shape: .top)
            let blue = try await t.closetItem(s.accessToken, type: "top", colour: (30, 60, 200), shape: .top)
            try await t.drawWardrobe()
            let outfit = try #require(try await createOutfit(t, s.accessToken, """
                {"name":"Test","pieces":[{"closetItemId":"\(red.id)","x":0.25,"y":0.25,"scale":0.4},
                {"closetItemId":"\(blue.id)","x":0.75,"y":0.75,"scale":0.4}]}
                """))
            #expect(outfit.renderStatus == "pending")
            try await t.drawWardrobe()

            func sample(_ outfitID: String) async throws -> (pixel: (Double, Double) -> [UInt8], width: Int) {
                let fresh = try await t.send(.GET, "/api/v1/outfits/\(outfitID)", token: s.accessToken).content.decode(OutfitBody.self)
                #expect(fresh.renderStatus == "ready")
                let jpeg = try #require(fresh.image?.variants.first { $0.format == "jpeg" && $0.width == 1080 })
                let folder = try TestImages.directory()
                defer { try? FileManager.default.removeItem(at: folder) }
                let file = folder.appendingPathComponent("outfit.jpg")
                try Data(buffer: try await t.fetch(jpeg.url).body).write(to: file)
                let image = try Vips.materialize(try Vips.open(file.path))
                let pixels = try Vips.pixels(image)
                let (w, h) = (image.width, image.height)
                #expect(w == 1080 && h == 1350)
                return ({ x, y in
                    let index = (Int(y * Double(h)) * w + Int(x * Double(w))) * 3
                    return Array(pixels[index..<index + 3])
                }, w)
            }
            func isRed(_ p: [UInt8]) -> Bool { p[0] > 150 && p[1] < 90 && p[2] < 90 }
            func isBlue(_ p: [UInt8]) -> Bool { p[2] > 150 && p[0] < 90 }
            func isWhite(_ p: [UInt8]) -> Bool { p.allSatisfy { $0 > 235 } }

            let first = try await sample(outfit.id)
            #expect(isRed(first.pixel(0.25, 0.25)), "\(first.pixel(0.25, 0.25))")
            #expect(isBlue(first.pixel(0.75, 0.75)), "\(first.pixel(0.75, 0.75))")
            #expect(isWhite(first.pixel(0.75, 0.25)) && isWhite(first.pixel(0.25, 0.75)) && isWhite(first.pixel(0.02, 0.02)))

            // Swap the places: the picture follows.
            let moved = try await t.send(.PATCH, "/api/v1/outfits/\(outfit.id)", json: """
                {"pieces":[{"closetItemId":"\(red.id)","x":0.75,"y":0.25,"scale":0.4},{"closetItemId":"\(blue.id)","x":0.25,"y":0.75,"scale":0.4}]}
                """, token: s.accessToken)
            #expect(try moved.content.decode(OutfitBody.self).renderStatus == "pending")
            try await t.drawWardrobe()
            let second = try await sample(outfit.id)
            #expect(isRed(second.pixel(0.75, 0.25)) && isBlue(second.pixel(0.25, 0.75)))
            #expect(isWhite(second.pixel(0.25, 0.25)))
        }
    }

    @Test("bad layouts get a specific 4xx and write nothing: another person's item, NaN, huge values")
    func badLayouts() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let other = try await t.signUp()
            let mine = try await t.closetItem(s.accessToken, type: "top")
            let theirs = try await t.closetItem(other.accessToken, type: "top")
            let before = try await t.wardrobeRowCounts(s)

            let foreign = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"x","pieces":[{"closetItemId":"\#(theirs.id)"}]}"#, token: s.accessToken)
            #expect(foreign.status == .unprocessableEntity)
            #expect(try foreign.problem().fields == ["pieces[0].closetItemId"])
            let nan = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"x","pieces":[{"closetItemId":"\#(mine.id)","x":NaN}]}"#, token: s.accessToken)
            #expect(nan.status == .badRequest, "\(nan.body.string)")
            let huge = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"x","pieces":[{"closetItemId":"\#(mine.id)","x":1e308,"scale":1e300,"rotation":-1e12,"z":99999999}]}"#, token: s.accessToken)
            #expect(huge.status == .unprocessableEntity, "\(huge.body.string)")
            #expect(Set(try huge.problem().fields) == ["pieces[0].x", "pieces[0].scale", "pieces[0].rotation", "pieces[0].z"])
            let empty = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"x","pieces":[]}"#, token: s.accessToken)
            #expect(empty.status == .unprocessableEntity || empty.status == .badRequest)
            #expect(try await t.wardrobeRowCounts(s) == before)
        }
    }

    @Test("privacy: a private outfit is 404 to others; friends-only is visible to friends, not to strangers or anyone blocked; pins follow the same rules")
    func visibility() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp()
            let friend = try await t.signUp()
            let stranger = try await t.signUp()
            try await t.befriend(owner, friend)
            let item = try await t.closetItem(owner.accessToken, type: "dress", shape: .dress)
            let priv = try #require(try await createOutfit(t, owner.accessToken, #"{"name":"Mine","pieces":[{"closetItemId":"\#(item.id)"}]}"#))
            let shared = try #require(try await createOutfit(t, owner.accessToken, #"{"name":"Ours","visibility":"friends","pieces":[{"closetItemId":"\#(item.id)"}]}"#))
            for token in [friend.accessToken, stranger.accessToken] {
                #expect(try await t.send(.GET, "/api/v1/outfits/\(priv.id)", token: token).status == .notFound)
            }
            let seen = try await t.send(.GET, "/api/v1/outfits/\(shared.id)", token: friend.accessToken)
            #expect(seen.status == .ok)
            let body = try seen.content.decode(OutfitBody.self)
            #expect(body.pieces.isEmpty && !body.canEdit, "others see the picture, not the closet's items")
            #expect(try await t.send(.GET, "/api/v1/outfits/\(shared.id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.PATCH, "/api/v1/outfits/\(shared.id)", json: #"{"name":"hijack"}"#, token: friend.accessToken).status == .notFound)

            #expect(try await t.send(.PUT, "/api/v1/outfits/\(shared.id)/pin", token: owner.accessToken).status == .ok)
            #expect(try await t.send(.PUT, "/api/v1/outfits/\(priv.id)/pin", token: owner.accessToken).status == .ok)
            let pinned = try await t.send(.GET, "/api/v1/people/\(owner.user.id)/outfits/pinned", token: friend.accessToken)
            struct Page: Decodable { var items: [OutfitBody] }
            #expect(try pinned.content.decode(Page.self).items.map(\.id) == [shared.id])
            // The profile carries the same pins, as each viewer may see them.
            struct ProfileBody: Decodable { var pinnedOutfits: [OutfitBody] }
            for (viewer, expected) in [(friend, [shared.id]), (stranger, []), (owner, [shared.id, priv.id])] {
                let profile = try await t.send(.GET, "/api/v1/users/\(owner.user.id)", token: viewer.accessToken)
                #expect(profile.status == .ok, "\(profile.body.string)")
                #expect(try profile.content.decode(ProfileBody.self).pinnedOutfits.map(\.id) == expected)
            }

            // Blocked: the friends-only outfit disappears for the friend.
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(friend.user.id)", token: owner.accessToken).status.code < 300)
            #expect(try await t.send(.GET, "/api/v1/outfits/\(shared.id)", token: friend.accessToken).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/people/\(owner.user.id)/outfits/pinned", token: friend.accessToken).status == .notFound)
            // The calendar entry of someone else is not there either.
            let plan = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(priv.id)","date":"2026-12-01"}"#, token: owner.accessToken)
            let entry = try plan.content.decode(CalendarEntryBody.self)
            #expect(try await t.send(.DELETE, "/api/v1/me/calendar/\(entry.id)", token: stranger.accessToken).status == .notFound)
            #expect(try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(priv.id)","date":"2026-12-02"}"#, token: stranger.accessToken).status == .notFound)
        }
    }

    @Test("planning, marking worn (wears logged on the items), and a warning when the outfit was worn within 14 days")
    func calendar() async throws {
        try await TestApp.with { t in
            var s = try await t.signUp()
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 12 * 3600))  // 2026-11-20 12:00 UTC
            s = try await t.refreshed(s)
            let top = try await t.closetItem(s.accessToken, type: "shirt")
            let bottom = try await t.closetItem(s.accessToken, type: "jeans", shape: .trousers)
            let outfit = try #require(try await createOutfit(t, s.accessToken, #"{"name":"Friday","pieces":[{"closetItemId":"\#(top.id)"},{"closetItemId":"\#(bottom.id)"}]}"#))

            let planned = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-11-21","note":"Dinner"}"#, token: s.accessToken)
            #expect(planned.status == .created)
            #expect(try planned.content.decode(CalendarEntryBody.self).warning == nil)
            let worn = try await t.send(.POST, "/api/v1/outfits/\(outfit.id)/worn?date=2026-11-20", token: s.accessToken)
            #expect(try worn.content.decode(CalendarEntryBody.self).worn)
            try await t.send(.POST, "/api/v1/outfits/\(outfit.id)/worn?date=2026-11-20", token: s.accessToken)
            #expect(try await t.closetItem(top.id, token: s.accessToken).wearCount == 1)
            #expect(try await t.closetItem(bottom.id, token: s.accessToken).wornOn == ["2026-11-20"])

            let again = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-12-01"}"#, token: s.accessToken)
            #expect(try again.content.decode(CalendarEntryBody.self).warning?.contains("2026-11-20") == true)
            let later = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-12-10"}"#, token: s.accessToken)
            #expect(try later.content.decode(CalendarEntryBody.self).warning == nil, "20 days later: no warning")

            let month = try await t.send(.GET, "/api/v1/me/calendar?month=2026-11", token: s.accessToken)
            struct Month: Decodable {
                struct Day: Decodable { var date: String; var entries: [CalendarEntryBody]; var wornItemIds: [String] }
                var month: String
                var days: [Day]
            }
            let body = try month.content.decode(Month.self)
            #expect(body.month == "2026-11" && body.days.map(\.date) == ["2026-11-20", "2026-11-21"])
            #expect(body.days[0].entries.map(\.worn) == [true] && Set(body.days[0].wornItemIds) == [top.id, bottom.id])
            #expect(try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"2026-11-31"}"#, token: s.accessToken).status == .unprocessableEntity)
            #expect(try await t.send(.GET, "/api/v1/me/calendar?month=2026-13", token: s.accessToken).status == .unprocessableEntity)
        }
    }

    @Test("suggestions: never archived, another person's or recently worn items; no coat at 28 °C; always top + bottom or a dress, plus shoes; each says why")
    func suggestions() async throws {
        try await TestApp.with { t in
            var s = try await t.signUp()
            let other = try await t.signUp()
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 12 * 3600))  // 2026-11-20
            s = try await t.refreshed(s)
            let all = #"{"seasons":["spring","summer","autumn","winter"]}"#
            let tee = try await t.closetItem(s.accessToken, type: "t-shirt", colour: (245, 245, 242), fields: all)
            let shirt = try await t.closetItem(s.accessToken, type: "shirt", colour: (140, 185, 230), fields: all)
            let chinos = try await t.closetItem(s.accessToken, type: "pants", colour: (222, 204, 170), shape: .trousers, fields: all)
            let dress = try await t.closetItem(s.accessToken, type: "dress", colour: (200, 30, 35), shape: .dress, fields: all)
            let sneakers = try await t.closetItem(s.accessToken, type: "shoes", colour: (245, 245, 242), shape: .shoes, fields: all)
            let coat = try await t.closetItem(s.accessToken, type: "coat", colour: (20, 20, 22), fields: all)
            let archivedSkirt = try await t.closetItem(s.accessToken, type: "skirt", colour: (20, 20, 22), shape: .trousers, fields: all)
            try await t.send(.PUT, "/api/v1/me/closet/items/\(archivedSkirt.id)/archive", token: s.accessToken)
            let wornJeans = try await t.closetItem(s.accessToken, type: "jeans", colour: (25, 35, 80), shape: .trousers, fields: all)
            try await t.send(.POST, "/api/v1/me/closet/items/\(wornJeans.id)/wears?date=2026-11-19", token: s.accessToken)
            let theirs = try await t.closetItem(other.accessToken, type: "shorts", colour: (20, 20, 22), shape: .trousers, fields: all)
            try await t.drawWardrobe()

            struct List: Decodable {
                struct Suggestion: Decodable { var items: [ClosetItemBody]; var reasons: [String] }
                var items: [Suggestion]
            }
            let warm = try await t.send(.GET, "/api/v1/me/outfit-suggestions?temperature=28&restDays=3&limit=10", token: s.accessToken)
            #expect(warm.status == .ok, "\(warm.body.string)")
            let suggestions = try warm.content.decode(List.self).items
            #expect(!suggestions.isEmpty)
            let excluded: Set = [coat.id, archivedSkirt.id, wornJeans.id, theirs.id]
            for suggestion in suggestions {
                let types = suggestion.items.map(\.type)
                #expect(suggestion.items.allSatisfy { !excluded.contains($0.id) }, "\(types) \(suggestion.items.map(\.lastWornOn)) \(suggestion.reasons)")
                let hasBase = types.contains("dress") || (types.contains { ["t-shirt", "shirt", "top", "sweater"].contains($0) }
                    && types.contains { ["pants", "jeans", "shorts", "skirt"].contains($0) })
                #expect(hasBase && types.contains("shoes"), "\(types)")
                #expect(!suggestion.reasons.isEmpty)
            }
            #expect(suggestions.contains { $0.items.map(\.id).contains(dress.id) })
            #expect(suggestions.contains { Set($0.items.map(\.id)).isSuperset(of: [tee.id, chinos.id, sneakers.id]) || Set($0.items.map(\.id)).isSuperset(of: [shirt.id, chinos.id, sneakers.id]) })

            // Cold: an outer layer joins, and it says so.
            let cold = try await t.send(.GET, "/api/v1/me/outfit-suggestions?temperature=4", token: s.accessToken).content.decode(List.self).items
            #expect(!cold.isEmpty && cold.allSatisfy { $0.items.map(\.id).contains(coat.id) && $0.reasons.contains { $0.contains("coat") } })
            // With no rest days, the jeans worn yesterday may come back.
            let noRest = try await t.send(.GET, "/api/v1/me/outfit-suggestions?temperature=15&restDays=0&limit=20", token: s.accessToken).content.decode(List.self).items
            #expect(noRest.contains { $0.items.map(\.id).contains(wornJeans.id) })
        }
    }
}
