import CVips
import Fluent
import VipsShim
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: mannequin try-on, size profile, recommendations")
struct TryOnAndRecommendationTests {
    @Test("the mannequin draws the top over the top slot and the trousers over the bottom slot (pixels sampled); a foreign item is a 422")
    func mannequin() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let other = try await t.signUp()
            let top = try await t.closetItem(s.accessToken, type: "top", colour: (200, 30, 30), shape: .top)
            let bottom = try await t.closetItem(s.accessToken, type: "pants", colour: (30, 60, 200), shape: .top)
            let theirs = try await t.closetItem(other.accessToken, type: "coat")
            try await t.drawWardrobe()
            let response = try await t.send(.POST, "/api/v1/me/try-on", json: #"{"closetItemIds":["\#(top.id)","\#(bottom.id)"]}"#, token: s.accessToken)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(response.headers.contentType?.description == "image/png")
            let folder = try TestImages.directory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("mannequin.png")
            try Data(buffer: response.body).write(to: file)
            let image = try Vips.materialize(try Vips.apply(try Vips.open(file.path)) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) })
            #expect(image.width == Mannequin.width && image.height == Mannequin.height)
            let pixels = try Vips.pixels(image)
            func at(_ x: Double, _ y: Double) -> [UInt8] {
                let index = (Int(y * Double(image.height)) * image.width + Int(x * Double(image.width))) * 3
                return Array(pixels[index..<index + 3])
            }
            let topBox = Mannequin.slotBox(.top, widthFactor: 1), bottomBox = Mannequin.slotBox(.bottom, widthFactor: 1)
            let onTop = at(topBox.x, topBox.y), onBottom = at(bottomBox.x, bottomBox.y)
            #expect(onTop[0] > 150 && onTop[1] < 90 && onTop[2] < 90, "top slot: \(onTop)")
            #expect(onBottom[2] > 150 && onBottom[0] < 90, "bottom slot: \(onBottom)")
            let head = at(0.5, 0.08)
            #expect(head[0] > 200 && head[0] < 230 && abs(Int(head[0]) - Int(head[2])) < 12, "the figure's head is bare grey: \(head)")

            let foreign = try await t.send(.POST, "/api/v1/me/try-on", json: #"{"closetItemIds":["\#(theirs.id)"]}"#, token: s.accessToken)
            #expect(foreign.status == .unprocessableEntity)
        }
    }

    @Test("the size profile keeps only measurements a body can have; bad ones are a 422 that changes nothing")
    func sizeProfile() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let saved = try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"units":"metric","heightCm":172,"chestCm":92,"shoeSizeEu":39,"preferredSizes":{"t-shirt":"M","jeans":"29"},"styles":["casual"],"colours":["navy"]}"#, token: s.accessToken)
            #expect(saved.status == .ok, "\(saved.body.string)")
            let bad = try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"heightCm":1e9,"chestCm":-3,"preferredSizes":{"cape":"M"},"styles":["goth"],"priceMin":{"amount":500,"currency":"SEK"},"priceMax":{"amount":100,"currency":"SEK"}}"#, token: s.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(try bad.problem().fields) == ["heightCm", "chestCm", "preferredSizes", "styles", "priceMax.amount"])
            // The fuzzer's find: the smallest Int64 once crashed the server (abs() traps on it).
            let extreme = try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"priceMax":{"amount":-9223372036854775808,"currency":"SEK"}}"#, token: s.accessToken)
            #expect(extreme.status == .unprocessableEntity)
            struct Profile: Decodable { var heightCm: Double?; var preferredSizes: [String: String] }
            let now = try await t.send(.GET, "/api/v1/me/size-profile", token: s.accessToken).content.decode(Profile.self)
            #expect(now.heightCm == 172 && now.preferredSizes == ["t-shirt": "M", "jeans": "29"])
        }
    }

    @Test("recommendations: only active products of public stores, in stock in the person's size; each says why; complete-the-look names the closet piece")
    func recommendations() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let s = try await t.signUp()
            try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"preferredSizes":{"top":"M","shirt":"M"},"colours":["white"],"styles":["casual"]}"#, token: s.accessToken)
            // A navy coat worn a lot: white tops go with it.
            let coat = try await t.closetItem(s.accessToken, type: "coat", fields: #"{"colours":["navy"]}"#)
            for day in ["2026-01-02", "2026-01-03"] { try await t.send(.POST, "/api/v1/me/closet/items/\(coat.id)/wears?date=\(day)", token: s.accessToken) }

            func product(_ title: String, sizes: String, status: String = "active", store: String? = nil) async throws -> String {
                let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
                let json = """
                    {"title":"\(title)","categoryId":"\(f.tops.id!.idString)","gender":"women","price":{"amount":29900,"currency":"SEK"},
                    "colors":["white"],"styles":["casual"],"variants":[\(sizes)],"photoIds":["\(photo)"],"status":"\(status)"}
                    """
                let response = try await t.createProduct(in: store ?? f.storeAID, token: f.ownerA.accessToken, json: json)
                #expect(response.status == .created, "\(response.body.string)")
                return try response.content.decode(ProductBody.self).id
            }
            let fits = try await product("White top", sizes: #"{"size":"S","stock":3},{"size":"M","stock":2}"#)
            let soldOut = try await product("Sold-out top", sizes: #"{"size":"M","stock":0},{"size":"L","stock":4}"#)
            let wrongSize = try await product("Small top", sizes: #"{"size":"XS","stock":5}"#)
            let inactive = try await product("Hidden top", sizes: #"{"size":"M","stock":5}"#, status: "inactive")

            let response = try await t.send(.GET, "/api/v1/me/recommendations", token: s.accessToken)
            #expect(response.status == .ok, "\(response.body.string)")
            struct List: Decodable {
                struct Item: Decodable { var product: ProductCardBody; var size: String; var kind: String; var reasons: [String] }
                var items: [Item]
            }
            let items = try response.content.decode(List.self).items
            #expect(items.map(\.product.id) == [fits], "\(items.map(\.product.title))")
            let first = try #require(items.first)
            #expect(first.size == "M" && first.reasons.contains("in your size (M), in stock"))
            #expect(first.reasons.contains { $0.contains("white, a colour you like") })
            #expect(first.kind == "complete-the-look" && first.reasons.contains { $0.contains("navy coat") }, "\(first.reasons)")
            #expect(![soldOut, wrongSize, inactive].contains(first.product.id))

            // A store that only signed-in members may browse does not appear either.
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            store.membersOnly = true
            try await store.save(on: t.app.db)
            let hidden = try await t.send(.GET, "/api/v1/me/recommendations", token: s.accessToken).content.decode(List.self)
            #expect(hidden.items.isEmpty)
        }
    }

    @Test("a size chart set by the store tells a shopper which size fits and why; a bad chart is a 422; others cannot set it")
    func sizeAdvice() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let s = try await t.signUp()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let created = try await t.createProduct(in: f.storeAID, token: f.ownerA.accessToken,
                json: CatalogTestSupportJSON.product(category: f.tops, photo: photo))
            let product = try created.content.decode(ProductBody.self).id
            let chartPath = "/api/v1/stores/\(f.storeAID)/products/\(product)/size-chart"
            let chart = #"{"rows":[{"size":"S","chest":{"min":82,"max":88},"waist":{"min":66,"max":72}},{"size":"M","chest":{"min":88,"max":94},"waist":{"min":72,"max":78}},{"size":"L","chest":{"min":94,"max":100},"waist":{"min":78,"max":84}}]}"#
            let stranger = try await t.send(.PUT, chartPath, json: chart, token: s.accessToken).status
            #expect(stranger == .forbidden || stranger == .notFound, "\(stranger)")
            let otherStore = try await t.send(.PUT, chartPath, json: chart, token: f.ownerB.accessToken).status
            #expect(otherStore == .forbidden || otherStore == .notFound, "another store's owner: \(otherStore)")
            let bad = try await t.send(.PUT, chartPath, json: #"{"rows":[{"size":"S","chest":{"min":90,"max":80}},{"size":"S","waist":{"min":1e9,"max":2e9}}]}"#, token: f.ownerA.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(try await t.send(.PUT, chartPath, json: chart, token: f.ownerA.accessToken).status == .ok)

            struct Advice: Decodable { var size: String?; var fits: Bool?; var reasons: [String] }
            let none = try await t.send(.GET, "/api/v1/products/\(product)/size-advice", token: s.accessToken).content.decode(Advice.self)
            #expect(none.size == nil && none.reasons.first?.contains("size profile") == true)
            try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"chestCm":92,"waistCm":76}"#, token: s.accessToken)
            let advice = try await t.send(.GET, "/api/v1/products/\(product)/size-advice", token: s.accessToken).content.decode(Advice.self)
            #expect(advice.size == "M" && advice.fits == true)
            #expect(advice.reasons == ["your chest 92 cm is within M's 88–94 cm", "your waist 76 cm is within M's 72–78 cm"])
            let pages = CatalogWebTests()
            let cookie = try await pages.webSignIn(t, email: s.user.email!)
            let page = try await pages.get(t, "/products/\(product.lowercased())", cookie: cookie)
            #expect(page.status == .ok)
            #expect(page.body.string.contains(#"<dd id="size-advice"><strong>M</strong>"#), "the product page names the size")
            try await t.send(.PUT, "/api/v1/me/size-profile", json: #"{"chestCm":101,"waistCm":83}"#, token: s.accessToken)
            let closest = try await t.send(.GET, "/api/v1/products/\(product)/size-advice", token: s.accessToken).content.decode(Advice.self)
            #expect(closest.size == "L" && closest.fits == false && closest.reasons.first == "your chest 101 cm is 1 cm over L's 94–100 cm")
        }
    }
}

enum CatalogTestSupportJSON {
    static func product(category: Category, photo: String) -> String {
        """
        {"title":"Fitted shirt","categoryId":"\(category.id!.idString)","gender":"women","price":{"amount":49900,"currency":"SEK"},
        "colors":["white"],"styles":["casual"],"variants":[{"size":"S","stock":2},{"size":"M","stock":2},{"size":"L","stock":2}],
        "photoIds":["\(photo)"],"status":"active"}
        """
    }
}
