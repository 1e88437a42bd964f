import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: trending near a place")
struct TrendingTests {
    struct TrendingBody: Decodable { var items: [ProductCardBody]; var since: String }

    @Test("the week's likes and board saves rank the products of nearby stores; older ones, far stores and hidden products do not count")
    func ranking() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shoppers = try await t.signUpMany(4)
            let coat = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.tops, title: "Wool coat")
            let scarf = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.tops, title: "Silk scarf")
            let old = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.tops, title: "Old news")
            // Eight days ago: two likes for "Old news", outside the window by then.
            for shopper in shoppers.prefix(2) {
                #expect(try await t.send(.PUT, "/api/v1/products/\(old.id)/like", token: shopper.accessToken).status.code < 300)
            }
            t.clock.advance(by: 8 * 24 * 3600)
            var fresh: [Session] = []
            for shopper in shoppers { fresh.append(try await t.refreshed(shopper)) }
            // This week: the coat liked by three and saved to a board by one; the scarf liked by one.
            for shopper in fresh.prefix(3) {
                #expect(try await t.send(.PUT, "/api/v1/products/\(coat.id)/like", token: shopper.accessToken).status.code < 300)
            }
            let board = try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"Winter"}"#, token: fresh[3].accessToken).content.decode(BoardBody.self)
            #expect(try await t.send(.PUT, "/api/v1/boards/\(board.id)/items/\(coat.id)", token: fresh[3].accessToken).status.code < 300)
            #expect(try await t.send(.PUT, "/api/v1/products/\(scarf.id)/like", token: fresh[3].accessToken).status.code < 300)

            let near = try await t.send(.GET, "/api/v1/discovery/trending?lat=57.7047&lng=11.965&radiusKm=5")
            #expect(near.status == .ok, "\(near.body.string)")
            #expect(try near.content.decode(TrendingBody.self).items.map(\.id) == [coat.id, scarf.id])
            // Far away: nothing.
            let far = try await t.send(.GET, "/api/v1/discovery/trending?lat=44.43&lng=26.10&radiusKm=50")
            #expect(try far.content.decode(TrendingBody.self).items.isEmpty)
            // A store that is suspended leaves the list.
            f.storeA.status = Store.Status.suspended.rawValue
            try await f.storeA.save(on: t.app.db)
            let after = try await t.send(.GET, "/api/v1/discovery/trending?lat=57.7047&lng=11.965&radiusKm=5").content.decode(TrendingBody.self)
            #expect(after.items.map(\.id) == [scarf.id])
        }
    }

    @Test("without a place it is a 422 naming lat; signed in, the home location is the place")
    func place() async throws {
        try await TestApp.with { t in
            let anonymous = try await t.send(.GET, "/api/v1/discovery/trending")
            #expect(anonymous.status == .unprocessableEntity)
            #expect(try anonymous.problem().fields == ["lat"])
            let shopper = try await t.signUp()
            #expect(try await t.send(.GET, "/api/v1/discovery/trending", token: shopper.accessToken).status == .unprocessableEntity)
            #expect(try await t.send(.PATCH, "/api/v1/me", json: #"{"homeLocation":{"lat":57.7,"lng":11.97}}"#, token: shopper.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/discovery/trending", token: shopper.accessToken).status == .ok)
            let email = uniqueEmail("trend")
            _ = try await t.signUp(email: email)
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            #expect(try await CatalogWebTests().get(t, "/trending", cookie: cookie).body.string.contains("trending-no-place"))
        }
    }
}
