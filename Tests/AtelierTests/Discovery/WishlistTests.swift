import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: wishlist and its walking route")
struct WishlistTests {
    typealias Walk = WalkingRoute<Int>

    /// The shortest open walk, by trying every order (fine for a few stops).
    func bestLength(from start: Walk.Point, _ points: [Walk.Point]) -> Double {
        func permutations(_ items: [Int]) -> [[Int]] {
            guard items.count > 1 else { return [items] }
            return items.flatMap { item in permutations(items.filter { $0 != item }).map { [item] + $0 } }
        }
        return permutations(Array(points.indices)).map { Walk.length(from: start, through: $0.map { points[$0] }) }.min()!
    }

    @Test("the walk visits every stop once, is the shortest for a few stops and never longer than the list's order for many")
    func routeAlgorithm() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let start = Walk.Point(lat: 57.70, lng: 11.97)
            let count = round < 200 ? Int.random(in: 1...7, using: &generator) : Int.random(in: 10...25, using: &generator)
            let points = (0..<count).map { _ in
                Walk.Point(lat: 57.70 + Double.random(in: -0.05...0.05, using: &generator), lng: 11.97 + Double.random(in: -0.08...0.08, using: &generator))
            }
            let walk = Walk(start: start, stops: points.enumerated().map { ($0.offset, $0.element) }).ordered()
            #expect(walk.map(\.stop).sorted() == Array(0..<count))
            let length = Walk.length(from: start, through: walk.map(\.at))
            #expect(length <= Walk.length(from: start, through: points) + 1e-9)
            if count <= 7 { #expect(abs(length - bestLength(from: start, points)) < 1e-9) }
        }
    }

    @Test("a 5-store wishlist's route visits every store once with distances, hours and items, no longer than the naive order")
    func routeThroughFiveStores() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Walker")
            // Five stores scattered around central Gothenburg, listed in a zig-zag order.
            let places: [(Double, Double)] = [(57.7089, 11.9746), (57.6960, 11.9870), (57.7060, 11.9360), (57.6990, 11.9530), (57.7150, 11.9990)]
            var productIDs: [String] = []
            var storeIDs: [UUID] = []
            for (index, place) in places.enumerated() {
                let store = try await StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media).create(.init(
                    name: "Walk Store \(index) \(UUID().uuidString.prefix(6))", street: "Gatan \(index)", city: "Gothenburg",
                    lat: place.0, lng: place.1, ownerEmail: f.ownerA.user.email))
                storeIDs.append(store.id!)
                for item in 0..<(index == 0 ? 2 : 1) {
                    productIDs.append(try await t.activeProduct(in: store.id!.idString, owner: f.ownerA, category: f.shirts, title: "Item \(index).\(item)").id)
                }
            }
            for id in productIDs {
                #expect(try await t.send(.PUT, "/api/v1/me/wishlist/\(id)", token: shopper.accessToken).status == .noContent)
            }
            // Adding twice changes nothing.
            #expect(try await t.send(.PUT, "/api/v1/me/wishlist/\(productIDs[0])", token: shopper.accessToken).status == .noContent)
            let list = try await t.send(.GET, "/api/v1/me/wishlist?limit=100", token: shopper.accessToken).content.decode(ProductCardPageBody.self)
            #expect(list.items.count == 6)

            struct RouteBody: Decodable {
                struct Stop: Decodable {
                    struct StoreRef: Decodable {
                        struct Location: Decodable { var lat: Double; var lng: Double }
                        var id: String
                        var location: Location
                        var openingHours: [OpeningHoursBody]
                    }
                    struct OpeningHoursBody: Decodable { var weekday: Int }
                    var store: StoreRef
                    var distanceMeters: Int
                    var items: [ProductCardBody]
                }
                var totalDistanceMeters: Int
                var stops: [Stop]
            }
            let start = (lat: 57.7072, lng: 11.9668)
            let response = try await t.send(.GET, "/api/v1/me/wishlist/route?lat=\(start.lat)&lng=\(start.lng)", token: shopper.accessToken)
            #expect(response.status == .ok, "\(response.body.string)")
            let route = try response.content.decode(RouteBody.self)
            #expect(Set(route.stops.map(\.store.id)) == Set(storeIDs.map(\.idString)))
            #expect(route.stops.count == 5)
            #expect(route.stops.first { $0.store.id == storeIDs[0].idString }?.items.count == 2)
            // Each leg is rounded to the metre on its own.
            #expect(abs(route.stops.reduce(0) { $0 + $1.distanceMeters } - route.totalDistanceMeters) <= route.stops.count)
            let naive = Walk.length(from: .init(lat: start.lat, lng: start.lng), through: places.map { .init(lat: $0.0, lng: $0.1) })
            #expect(Double(route.totalDistanceMeters) <= naive * 1000 + 1)

            // Taken off the list: the store leaves the route. Bad positions are 422s; signed out is 401.
            #expect(try await t.send(.DELETE, "/api/v1/me/wishlist/\(productIDs[5])", token: shopper.accessToken).status == .noContent)
            let shorter = try await t.send(.GET, "/api/v1/me/wishlist/route?lat=57.7&lng=11.97", token: shopper.accessToken).content.decode(RouteBody.self)
            #expect(shorter.stops.count == 4)
            let bad = try await t.send(.GET, "/api/v1/me/wishlist/route?lat=91&lng=11.97", token: shopper.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().fields == ["lat"])
            #expect(try await t.send(.GET, "/api/v1/me/wishlist/route?lat=57.7&lng=11.97").status == .unauthorized)
            #expect(try await t.send(.PUT, "/api/v1/me/wishlist/\(UUID())", token: shopper.accessToken).status == .notFound)
        }
    }
}
