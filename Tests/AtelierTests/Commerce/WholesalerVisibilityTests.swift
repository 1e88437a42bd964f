import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// A sign-in-to-browse wholesaler is found by its approved customers and its staff through every
/// list, and by nobody else through any (issue 51).
@Suite("Commerce: a wholesaler's catalogue in every list, for its own customers only")
struct WholesalerVisibilityTests {
    @Test("an approved bar and the staff find the gin by category, word, facet, suggestion, place, store list and feed; others find no trace")
    func everyListing() async throws {
        try await TestApp.with { t in
            let shop = try await TradeAndAccessTests().wholesaler(t)
            let storeID = shop.storeID, productID = shop.productID
            let storeName = shop.catalog.storeA.name
            try await SearchIndex(db: t.app.db).refresh(.products([UUID(uuidString: productID)!]))
            let bar = try await t.signUp(name: "Bar Nova"), pending = try await t.signUp(name: "Pending Bar"), shopper = try await t.signUp()
            try await TradeAndAccessTests().approve(t, bar, at: shop)
            #expect(try await t.send(
                .POST, "/api/v1/stores/\(storeID)/trade-customers", json: #"{"companyName":"Pending AB"}"#, token: pending.accessToken).status == .ok)
            let women = shop.catalog.women.id!.idString, shirts = shop.catalog.shirts.id!.idString
            let place = "lat=57.7&lng=11.97"
            let lists = [
                "/api/v1/products?categoryId=\(women)",
                "/api/v1/search/products?q=linen",
                "/api/v1/search/products?categoryId=\(women)",
                "/api/v1/search/products?q=linen&\(place)&radiusKm=5",
                "/api/v1/search/suggest?q=\(storeName.replacingOccurrences(of: " ", with: "%20"))",
                "/api/v1/search/suggest?categoryId=\(women)",
                "/api/v1/stores/nearby?\(place)&radiusKm=5",
                "/api/v1/search/stores?\(place)&radiusKm=5",
                "/api/v1/stores?limit=100",
                "/api/v1/feed/discover?\(place)&radiusKm=10",
                "/api/v1/feed/discover",
            ]
            // What each list says about the wholesaler: its product or store id, or its shirts counted.
            func mentions(_ path: String, token: String?) async throws -> Bool {
                let response = try await t.send(.GET, path, token: token)
                if path.hasPrefix("/api/v1/feed"), token == nil { return false }
                #expect(response.status == .ok, "\(path): \(response.body.string)")
                let body = response.body.string
                if path.contains("suggest?categoryId") { return body.contains(shirts) || body.contains(shop.catalog.tops.id!.idString) }
                return body.contains(productID) || body.contains(storeID)
            }
            for path in lists {
                #expect(try await mentions(path, token: bar.accessToken), "the bar: \(path)")
                #expect(try await mentions(path, token: shop.owner.accessToken), "the owner: \(path)")
                for (who, token) in [("a shopper", shopper.accessToken), ("a pending applicant", pending.accessToken), ("signed out", nil)] {
                    #expect(try await mentions(path, token: token) == false, "\(who): \(path)")
                }
            }
            // The search's total and facets count the gin for the bar only.
            let barSearch = try t.object(try await t.send(.GET, "/api/v1/search/products?q=linen", token: bar.accessToken))
            let shopperSearch = try t.object(try await t.send(.GET, "/api/v1/search/products?q=linen", token: shopper.accessToken))
            #expect(barSearch["total"] as? Int == 1 && shopperSearch["total"] as? Int == 0)
            // The store's own list filters by category (and everything under it).
            let inShirts = try t.object(try await t.send(.GET, "/api/v1/stores/\(storeID)/products?categoryId=\(women)", token: bar.accessToken))
            #expect((inShirts["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [productID])
            let inMen = try t.object(try await t.send(
                .GET, "/api/v1/stores/\(storeID)/products?categoryId=\(shop.catalog.men.id!.idString)", token: bar.accessToken))
            #expect((inMen["items"] as? [[String: Any]])?.isEmpty == true)
            #expect(try await t.send(.GET, "/api/v1/stores/\(storeID)/products?categoryId=\(UUID())", token: bar.accessToken).status == .notFound)
            // Cards carry the trade terms for the bar, never for the shopper.
            let barCards = try await t.send(.GET, "/api/v1/products?categoryId=\(women)", token: bar.accessToken).body.string
            #expect(barCards.contains(#""tradePrice":{"amount":39900"#) && barCards.contains(#""caseSize":6"#))
            // The bar's own lookbook keeps the gin it liked, while it is an approved customer.
            #expect(try await t.send(.PUT, "/api/v1/products/\(productID)/like", token: bar.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/me/lookbook", token: bar.accessToken).body.string.contains(productID))
            try await t.send(
                .POST, "/api/v1/stores/\(storeID)/trade-customers/\(bar.user.id.lowercased())/decision", json: #"{"approve":false}"#,
                token: shop.owner.accessToken)
            #expect(try await t.send(.GET, "/api/v1/me/lookbook", token: bar.accessToken).body.string.contains(productID) == false)
            // The public share page stays closed to everyone without a sign-in.
            #expect(try await t.send(.GET, "/products/\(productID)", headers: [("Accept", "text/html")]).status == .notFound)
        }
    }
}
