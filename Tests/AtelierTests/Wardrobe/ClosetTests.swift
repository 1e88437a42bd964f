import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: closet items, cut-outs, wears and value")
struct ClosetTests {
    @Test("three photos at once become three pending items; the queue cuts them out, names their colours and keeps the originals")
    func photosToCutouts() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            var ids: [String] = []
            for (shape, colour) in [(GarmentPhoto.Shape.top, (UInt8(30), UInt8(45), UInt8(110))), (.trousers, (190, 40, 40)), (.shoes, (45, 45, 45))] {
                ids.append(try await t.uploadGarment(GarmentPhoto(shape: shape, backdrop: .gradient, colour: colour), token: s.accessToken))
            }
            let photos = ids.map { #"{"mediaId":"\#($0)"}"# }.joined(separator: ",")
            let items = try await t.addCloset(#"{"photos":[\#(photos)]}"#, token: s.accessToken)
            #expect(items.count == 3 && items.allSatisfy { $0.cutoutStatus == "pending" && $0.photo?.id != nil && $0.typeGuessed })

            try await t.drawWardrobe()
            let done = try await [t.closetItem(items[0].id, token: s.accessToken), t.closetItem(items[1].id, token: s.accessToken),
                t.closetItem(items[2].id, token: s.accessToken)]
            #expect(done.map(\.cutoutStatus) == ["ready", "ready", "ready"])
            #expect(done.map { $0.colours.first } == ["navy", "red", "black"], "\(done.map(\.colours))")
            #expect(done.map(\.type) == ["top", "pants", "shoes"], "the type guessed from the cut-out's shape")
            #expect(done.map { $0.photo?.id } == ids, "the original photo is kept")
            // The cut-out's WebP is transparent around the garment, its JPEG on white.
            let cutout = try #require(done[0].cutout)
            let webp = try #require(cutout.variants.first { $0.format == "webp" })
            let file = try await t.fetch(webp.url)
            #expect(file.status == .ok)
            let folder = try TestImages.directory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("cutout.webp")
            try Data(buffer: file.body).write(to: path)
            let image = try Vips.materialize(try Vips.open(path.path))
            let pixels = try Vips.pixels(image)
            #expect(pixels.count == image.width * image.height * 4, "RGBA")
            #expect(pixels[3] == 0, "the corner is transparent")
            let centre = (image.height / 2 * image.width + image.width / 2) * 4
            #expect(pixels[centre + 3] == 255, "the garment is opaque")
        }
    }

    @Test("a device mask sent with the photo is what the cut-out follows")
    func deviceMaskThroughAPI() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let photo = GarmentPhoto(shape: .dress, backdrop: .plain, colour: (60, 140, 70), width: 320, height: 240)
            let media = try await t.uploadGarment(photo, token: s.accessToken)
            var mask = [UInt8](repeating: 0, count: 320 * 240)
            for y in 40..<200 { for x in 100..<180 { mask[y * 320 + x] = 255 } }
            let png = try Vips.pngData(try Vips.image(fromBytes: mask, width: 320, height: 240, bands: 1))
            let uploaded = try await t.upload(png, contentType: "image/png", token: s.accessToken)
            let maskID = try uploaded.content.decode(ImageBody.self).id
            let item = try await t.addCloset(#"{"photos":[{"mediaId":"\#(media)","maskMediaId":"\#(maskID)"}],"fields":{"type":"dress"}}"#,
                token: s.accessToken)[0]
            try await t.drawWardrobe()
            let done = try await t.closetItem(item.id, token: s.accessToken)
            #expect(done.cutoutStatus == "ready")
            // The mask's rectangle (80 × 160) plus the crop margin, not the dress's outline.
            #expect(done.cutout?.width == 80 + 2 * 3 && done.cutout?.height == 160 + 2 * 3, "\(String(describing: done.cutout?.width))×\(String(describing: done.cutout?.height))")
            #expect(done.type == "dress" && !done.typeGuessed)
        }
    }

    @Test("logging an item worn three times on one local date counts one wear; wear count equals distinct dates across a time-zone change")
    func wears() async throws {
        try await TestApp.with { t in
            var s = try await t.signUp()
            let item = try await t.closetItem(s.accessToken, type: "jeans")
            // 2026-11-20 10:00 UTC.
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 10 * 3600))
            s = try await t.refreshed(s)
            for _ in 0..<3 {
                let response = try await t.send(.POST, "/api/v1/me/closet/items/\(item.id)/wears", token: s.accessToken)
                #expect(response.status == .ok, "\(response.body.string)")
            }
            #expect(try await t.closetItem(item.id, token: s.accessToken).wearCount == 1)
            // In UTC+14 it is already the 21st: a new local date, a second wear.
            try await t.setTimeZone("Pacific/Kiritimati", for: s)
            try await t.send(.POST, "/api/v1/me/closet/items/\(item.id)/wears", token: s.accessToken)
            // The 20th again, by date: no new wear.
            try await t.send(.POST, "/api/v1/me/closet/items/\(item.id)/wears?date=2026-11-20", token: s.accessToken)
            let after = try await t.closetItem(item.id, token: s.accessToken)
            #expect(after.wearCount == 2 && after.wornOn == ["2026-11-21", "2026-11-20"] && after.lastWornOn == "2026-11-21")
            let rows = try await ClosetWear.query(on: t.app.db).filter(\.$itemID == UUID(uuidString: item.id)!).count()
            #expect(rows == after.wearCount)
            // Taking one back.
            let removed = try await t.send(.DELETE, "/api/v1/me/closet/items/\(item.id)/wears/2026-11-21", token: s.accessToken)
            #expect(try removed.content.decode(ClosetItemBody.self).wearCount == 1)
            #expect(try removed.content.decode(ClosetItemBody.self).lastWornOn == "2026-11-20")
        }
    }

    @Test("cost per wear = price ÷ max(wears, 1), none without a price; closet value leaves out archived and unpriced items")
    func costPerWearAndValue() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let coat = try await t.closetItem(s.accessToken, type: "coat", fields: #"{"price":{"amount":120000,"currency":"SEK"}}"#)
            #expect(coat.costPerWear?.amount == 120000, "no wears yet: the whole price")
            for day in ["2026-01-02", "2026-01-03", "2026-01-04"] {
                try await t.send(.POST, "/api/v1/me/closet/items/\(coat.id)/wears?date=\(day)", token: s.accessToken)
            }
            #expect(try await t.closetItem(coat.id, token: s.accessToken).costPerWear?.amount == 40000)
            let unpriced = try await t.closetItem(s.accessToken, type: "t-shirt")
            #expect(unpriced.price == nil && unpriced.costPerWear == nil)
            let sold = try await t.closetItem(s.accessToken, type: "jeans", fields: #"{"price":{"amount":50000,"currency":"SEK"}}"#)
            try await t.send(.PUT, "/api/v1/me/closet/items/\(sold.id)/archive?reason=sold", token: s.accessToken)
            let stats = try await t.send(.GET, "/api/v1/me/closet/stats", token: s.accessToken)
            struct Stats: Decodable {
                struct Money: Decodable { var amount: Int; var currency: String }
                var itemCount: Int
                var value: [Money]
                var bestValue: [ClosetItemBody]
            }
            let body = try stats.content.decode(Stats.self)
            #expect(body.itemCount == 2)
            #expect(body.value.map(\.amount) == [120000] && body.value.map(\.currency) == ["SEK"])
            #expect(body.bestValue.map(\.id) == [coat.id])
            // Lists leave archived items out unless asked for them.
            let list = try await t.send(.GET, "/api/v1/me/closet/items?sort=cost-per-wear", token: s.accessToken)
            #expect(try list.content.decode(ClosetItemListBody.self).items.map(\.id) == [coat.id, unpriced.id])
            let archived = try await t.send(.GET, "/api/v1/me/closet/items?archived=true", token: s.accessToken)
            #expect(try archived.content.decode(ClosetItemListBody.self).items.map(\.id) == [sold.id])
        }
    }

    @Test("bad input gets a specific 4xx and writes nothing: unknown type, negative price, a date that does not exist")
    func badInput() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let item = try await t.closetItem(s.accessToken, type: "skirt")
            let before = try await t.wardrobeRowCounts(s)
            let media = try await t.uploadGarment(GarmentPhoto(shape: .top, backdrop: .plain, colour: (30, 45, 110), width: 320, height: 240), token: s.accessToken)

            let unknownType = try await t.send(.POST, "/api/v1/me/closet/items", json: #"{"photos":[{"mediaId":"\#(media)"}],"fields":{"type":"cape"}}"#, token: s.accessToken)
            #expect(unknownType.status == .badRequest || unknownType.status == .unprocessableEntity, "\(unknownType.body.string)")
            #expect(try unknownType.problem().fields.contains { $0.contains("type") })

            let negative = try await t.send(.POST, "/api/v1/me/closet/items",
                json: #"{"photos":[{"mediaId":"\#(media)"}],"fields":{"type":"top","price":{"amount":-100,"currency":"SEK"}}}"#, token: s.accessToken)
            #expect(negative.status == .unprocessableEntity, "\(negative.body.string)")
            #expect(try negative.problem().fields == ["price.amount"])

            // An upload that does not exist (the contract fuzzer's find: it was a 500), alone or after a real one.
            let unknownUpload = try await t.send(.POST, "/api/v1/me/closet/items",
                json: #"{"photos":[{"mediaId":"\#(media)"},{"mediaId":"\#(UUID().uuidString.lowercased())"}]}"#, token: s.accessToken)
            #expect(unknownUpload.status == .notFound, "\(unknownUpload.body.string)")

            let noSuchDay = try await t.send(.POST, "/api/v1/me/closet/items/\(item.id)/wears?date=2026-02-30", token: s.accessToken)
            #expect(noSuchDay.status == .unprocessableEntity, "\(noSuchDay.body.string)")
            #expect(try noSuchDay.problem().fields == ["date"])
            let badPurchase = try await t.send(.PATCH, "/api/v1/me/closet/items/\(item.id)", json: #"{"purchasedOn":"2025-13-01"}"#, token: s.accessToken)
            #expect(badPurchase.status == .unprocessableEntity)

            #expect(try await t.wardrobeRowCounts(s) == before)
            // The upload was not taken by the refused requests: it can still become an item.
            let media2 = try await Media.find(UUID(uuidString: media)!, on: t.app.db)
            #expect(media2?.ownerType == nil)
        }
    }

    @Test("another person gets 404 for a closet item, and cannot use someone else's upload")
    func privacy() async throws {
        try await TestApp.with { t in
            let owner = try await t.signUp()
            let other = try await t.signUp()
            let item = try await t.closetItem(owner.accessToken, type: "coat")
            for (method, path) in [(HTTPMethod.GET, ""), (.DELETE, ""), (.POST, "/wears"), (.PUT, "/archive")] {
                let response = try await t.send(method, "/api/v1/me/closet/items/\(item.id)\(path)", token: other.accessToken)
                #expect(response.status == .notFound, "\(method) \(path): \(response.status)")
            }
            let media = try await t.uploadGarment(GarmentPhoto(shape: .top, backdrop: .plain, colour: (30, 45, 110), width: 320, height: 240), token: owner.accessToken)
            try await t.addCloset(#"{"photos":[{"mediaId":"\#(media)"}]}"#, token: other.accessToken, expect: .notFound)
            #expect(try await t.closetItem(item.id, token: owner.accessToken).wearCount == 0)
        }
    }
}
