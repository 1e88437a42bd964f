import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// wardrobe.md: "Preferences: styles, colours, brands, preferred size per garment type, price
/// range. The discover feed and search can default to them."
@Suite("Wardrobe: search and the discover feed default to the shopping preferences")
struct ShoppingPreferencesTests {
    struct Listed: Decodable {
        struct Card: Decodable { var id: String }
        var items: [Card]
        var appliedPreferences: [String]?
    }

    /// Five products, one of which fits every preference; each other one misses exactly one.
    struct Shelf {
        var fits: String, wrongColour: String, wrongStyle: String, soldOutInSize: String, tooDear: String, otherBrand: String
        /// In euros: the profile's price range is in SEK, so it does not hold this one to it.
        var inEuros: String
        var all: Set<String> { [fits, wrongColour, wrongStyle, soldOutInSize, tooDear, otherBrand, inEuros] }
    }

    func shelf(_ t: TestApp, _ f: CatalogFixture) async throws -> Shelf {
        func product(_ title: String, colour: String = "red", style: String = "casual", mStock: Int = 2, price: Int = 39_900,
                     currency: String = "SEK", brand: Bool = true) async throws -> String {
            let photo = try await t.placeholderPhoto(uploader: f.ownerA.user.id)
            let brandPart = brand ? #","brandId":"\#(f.brand.id!.idString)""# : ""
            let json = """
                {"title":"\(title)","categoryId":"\(f.tops.id!.idString)"\(brandPart),"gender":"women",
                "price":{"amount":\(price),"currency":"\(currency)"},"colors":["\(colour)"],"styles":["\(style)"],
                "variants":[{"size":"M","stock":\(mStock)},{"size":"L","stock":3}],"photoIds":["\(photo)"],"status":"active"}
                """
            let response = try await t.createProduct(in: f.storeAID, token: f.ownerA.accessToken, json: json)
            #expect(response.status == .created, "\(response.body.string)")
            return try response.content.decode(ProductBody.self).id.lowercased()
        }
        // Burgundy in the closet's palette is red in the catalog's.
        return Shelf(
            fits: try await product("Red casual tee"), wrongColour: try await product("Green casual tee", colour: "green"),
            wrongStyle: try await product("Red formal top", style: "formal"), soldOutInSize: try await product("Red tee, no M left", mStock: 0),
            tooDear: try await product("Red cashmere tee", price: 250_000), otherBrand: try await product("Red tee without a brand", brand: false),
            inEuros: try await product("Red tee in euros", price: 900_000, currency: "EUR"))
    }

    func profileJSON(_ f: CatalogFixture, defaultTo: Bool? = nil) -> String {
        let flag = defaultTo.map { #","defaultToPreferences":\#($0)"# } ?? ""
        return """
            {"preferredSizes":{"t-shirt":"M"},"colours":["burgundy","navy"],"styles":["casual"],"brandIds":["\(f.brand.id!.idString)"],
            "priceMin":{"amount":10000,"currency":"SEK"},"priceMax":{"amount":100000,"currency":"SEK"}\(flag)}
            """
    }

    func ids(_ response: TestingHTTPResponse) throws -> Set<String> {
        #expect(response.status == .ok, "\(response.body.string)")
        return Set(try response.content.decode(Listed.self).items.map { $0.id.lowercased() })
    }

    @Test("search fills only the filters the request leaves open, when asked or when the profile says so; preferences=false turns them off; signed out it is a 401")
    func search() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shelf = try await shelf(t, f)
            let s = try await t.signUp()
            let put = try await t.send(.PUT, "/api/v1/me/size-profile", json: profileJSON(f), token: s.accessToken)
            #expect(put.status == .ok, "\(put.body.string)")

            let plain = try await t.send(.GET, "/api/v1/search/products?limit=50", token: s.accessToken)
            #expect(try ids(plain) == shelf.all, "no default was chosen, so nothing is filtered")
            #expect(try plain.content.decode(Listed.self).appliedPreferences == nil)

            let held = try await t.send(.GET, "/api/v1/search/products?limit=50&preferences=true", token: s.accessToken)
            #expect(try ids(held) == [shelf.fits, shelf.inEuros])
            #expect(try held.content.decode(Listed.self).appliedPreferences == ["brand", "color", "style", "size", "price"])

            // What the shopper picks wins over the preference for that filter; the others still hold.
            let picked = try await t.send(.GET, "/api/v1/search/products?limit=50&preferences=true&color=green&priceMax=300000", token: s.accessToken)
            #expect(try ids(picked) == [shelf.wrongColour])
            #expect(try picked.content.decode(Listed.self).appliedPreferences == ["brand", "style", "size"])

            // Made the default: held without asking, and off with preferences=false.
            #expect(try await t.send(.PUT, "/api/v1/me/size-profile", json: profileJSON(f, defaultTo: true), token: s.accessToken).status == .ok)
            struct Profile: Decodable { var defaultToPreferences: Bool? }
            #expect(try await t.send(.GET, "/api/v1/me/size-profile", token: s.accessToken).content.decode(Profile.self).defaultToPreferences == true)
            #expect(try ids(try await t.send(.GET, "/api/v1/search/products?limit=50", token: s.accessToken)) == [shelf.fits, shelf.inEuros])
            #expect(try ids(try await t.send(.GET, "/api/v1/search/products?limit=50&preferences=false", token: s.accessToken)) == shelf.all)

            // Someone else's default is not anyone's: the search cache keys on the filled query.
            #expect(try ids(try await t.send(.GET, "/api/v1/search/products?limit=50")) == shelf.all)
            let signedOut = try await t.send(.GET, "/api/v1/search/products?preferences=true")
            #expect(signedOut.status == .unauthorized)

            // Styles are a search filter of their own now, and a bad one is named.
            #expect(try ids(try await t.send(.GET, "/api/v1/search/products?limit=50&style=formal")) == [shelf.wrongStyle])
            let bad = try await t.send(.GET, "/api/v1/search/products?style=goth")
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().fields == ["style"])
        }
    }

    @Test("the discover feed holds to the preferences when asked or by default, says which, and pages through them")
    func discoverFeed() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shelf = try await shelf(t, f)
            let s = try await t.signUp()
            #expect(try await t.send(.PUT, "/api/v1/me/size-profile", json: profileJSON(f), token: s.accessToken).status == .ok)

            func feed(_ path: String, limit: Int = 7) async throws -> [String] {
                try await t.readFeed(path, token: s.accessToken, limit: limit).map { $0.lowercased() }
            }
            #expect(Set(try await feed("/api/v1/feed/discover", limit: 2)) == shelf.all)
            let held = try await feed("/api/v1/feed/discover?preferences=true", limit: 1)
            #expect(Set(held) == [shelf.fits, shelf.inEuros] && held.count == 2, "paged one at a time, each once")
            let page = try await t.send(.GET, "/api/v1/feed/discover?preferences=true", token: s.accessToken).content.decode(Listed.self)
            #expect(page.appliedPreferences == ["brand", "color", "style", "size", "price"])

            #expect(try await t.send(.PUT, "/api/v1/me/size-profile", json: profileJSON(f, defaultTo: true), token: s.accessToken).status == .ok)
            #expect(Set(try await feed("/api/v1/feed/discover")) == [shelf.fits, shelf.inEuros])
            #expect(Set(try await feed("/api/v1/feed/discover?preferences=false")) == shelf.all)
            // The following feed is what the person follows; preferences do not narrow it.
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: s.accessToken).status == .ok)
            #expect(Set(try await feed("/api/v1/feed/following")) == shelf.all)

            // The web pages say so and offer the way out.
            let pages = CatalogWebTests()
            let cookie = try await pages.webSignIn(t, email: s.user.email!)
            let feed = try await pages.get(t, "/feed?tab=discover&preferences=true", cookie: cookie)
            #expect(feed.body.string.contains("in your brands, colours, styles, sizes (in stock) and price range"), "\(feed.body.string)")
            #expect(feed.body.string.contains(#"id="feed-preferences-off""#))
            let search = try await pages.get(t, "/search?q=tee", cookie: cookie)
            #expect(search.body.string.contains(#"id="search-preferences""#))
            #expect(search.body.string.contains("Red casual tee") && !search.body.string.contains("Green casual tee"))
            let everything = try await pages.get(t, "/search?q=tee&preferences=false", cookie: cookie)
            #expect(everything.body.string.contains("Green casual tee") && everything.body.string.contains(#"id="search-preferences-on""#))
        }
    }
}
