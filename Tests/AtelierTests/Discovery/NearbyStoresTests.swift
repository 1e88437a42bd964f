import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: nearby stores and opening times")
struct NearbyStoresTests {
    /// 2027-01-15 08:00 UTC, a Friday: 09:00 in Stockholm (UTC+1 in winter).
    let friday = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("open now follows the store's own time zone, weekday and overnight hours")
    func openingTimes() {
        let weekdays = (1...7).map { OpeningHours(weekday: $0, opens: "08:30", closes: "17:00") }
        #expect(OpeningTimes.isOpen(weekdays, timeZone: "Europe/Stockholm", at: friday))
        #expect(!OpeningTimes.isOpen(weekdays, timeZone: "UTC", at: friday))  // 08:00 there
        #expect(!OpeningTimes.isOpen(weekdays, timeZone: "America/New_York", at: friday))  // 03:00 there
        let fridayOnly = [OpeningHours(weekday: 5, opens: "09:00", closes: "10:00")]
        #expect(OpeningTimes.isOpen(fridayOnly, timeZone: "Europe/Stockholm", at: friday))
        #expect(!OpeningTimes.isOpen(fridayOnly, timeZone: "Europe/Stockholm", at: friday.addingTimeInterval(86_400)))
        // Thursday 22:00 to 02:00 covers Friday 01:00, not Friday 03:00.
        let lateThursday = [OpeningHours(weekday: 4, opens: "22:00", closes: "02:00")]
        #expect(OpeningTimes.isOpen(lateThursday, timeZone: "UTC", at: friday.addingTimeInterval(-7 * 3600)))
        #expect(!OpeningTimes.isOpen(lateThursday, timeZone: "UTC", at: friday.addingTimeInterval(-5 * 3600)))
        #expect(!OpeningTimes.isOpen([], timeZone: "UTC", at: friday))
    }

    @Test("nearby stores come nearest first within the radius, with distance and open-now; bad input is a 422")
    func nearby() async throws {
        try await TestApp.with { t in
            t.clock.set(friday)
            let f = try await t.catalogFixture()
            let stores = StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media)
            let user = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            // Far from the fixture's stores (Gothenburg): a cluster in Malmö, 0.5, 2 and 8 km from the point.
            let point = (lat: 55.6050, lng: 13.0038)
            var ids: [String] = []
            for (index, km) in [2.0, 0.5, 8.0].enumerated() {
                let store = try await stores.create(.init(
                    name: "Malmö \(index) \(UUID().uuidString.prefix(6))", street: "Gatan \(index)", city: "Malmö",
                    lat: point.lat + km / 111.195, lng: point.lng, ownerEmail: nil, timeZone: "Europe/Stockholm"))
                let opens = index == 0 ? "08:30" : "10:00"  // the 2 km store is open at 09:00, the others not yet
                _ = try await stores.update(store, with: .init(openingHours: (1...7).map { OpeningHours(weekday: $0, opens: opens, closes: "18:00") }), by: user)
                ids.append(store.id!.idString)
            }
            struct Body: Decodable {
                struct Item: Decodable {
                    struct StoreRef: Decodable { var id: String; var timeZone: String }
                    var store: StoreRef
                    var distanceMeters: Int
                    var openNow: Bool
                }
                var items: [Item]
            }
            let near = try await t.send(.GET, "/api/v1/stores/nearby?lat=\(point.lat)&lng=\(point.lng)").content.decode(Body.self)
            #expect(near.items.map(\.store.id) == [ids[1], ids[0]])
            #expect(near.items.map(\.openNow) == [false, true])
            #expect(abs(near.items[0].distanceMeters - 500) <= 5)
            #expect(near.items[0].store.timeZone == "Europe/Stockholm")
            let wide = try await t.send(.GET, "/api/v1/stores/nearby?lat=\(point.lat)&lng=\(point.lng)&radiusKm=10").content.decode(Body.self)
            #expect(wide.items.map(\.store.id) == [ids[1], ids[0], ids[2]])
            let open = try await t.send(.GET, "/api/v1/stores/nearby?lat=\(point.lat)&lng=\(point.lng)&radiusKm=10&openNow=true").content.decode(Body.self)
            #expect(open.items.map(\.store.id) == [ids[0]])

            for (query, field) in [("lat=91&lng=13", "lat"), ("lat=55&lng=13&radiusKm=51", "radiusKm"), ("lat=55&lng=13&limit=0", "limit")] {
                let bad = try await t.send(.GET, "/api/v1/stores/nearby?\(query)")
                #expect(bad.status == .unprocessableEntity, "\(query)")
                #expect(try bad.problem().fields == [field])
            }
            // A store's time zone must be an IANA zone.
            let refused = try await t.send(
                .POST, "/api/v1/stores", json: #"{"name":"Zoned","street":"A","city":"B","location":{"lat":55,"lng":13},"timeZone":"Mars/Base"}"#,
                token: f.admin.accessToken)
            #expect(refused.status == .unprocessableEntity)
            #expect(try refused.problem().fields == ["timeZone"])
        }
    }
}
