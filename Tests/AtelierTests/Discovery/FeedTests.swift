import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: following and discover feeds")
struct FeedTests {
    @Test("paging with asOf while 60 products arrive shows every older product exactly once")
    func snapshotPaging() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Scroller")
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: shopper.accessToken).status == .ok)
            var older: [String] = []
            for index in 0..<30 {
                older.append(try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Old \(index)").id)
            }
            let first = try await t.send(.GET, "/api/v1/feed/following?limit=1", token: shopper.accessToken).content.decode(FeedPageBody.self)
            t.clock.advance(by: 1)

            // Ten new products arrive after every page the client reads (sixty in all), their
            // sort keys spread above and below the client's position.
            var uploaded = 0
            let rest = try await t.readFeed("/api/v1/feed/following?asOf=\(first.asOf)", token: shopper.accessToken, limit: 5) { _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<min(10, 60 - uploaded) {
                        group.addTask { _ = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "New \(index)") }
                    }
                    try await group.waitForAll()
                }
                uploaded = min(60, uploaded + 10)
            }
            #expect(uploaded == 60)
            #expect(rest.count == Set(rest).count, "a product was shown twice")
            #expect(Set(rest) == Set(older))
            #expect(rest.count == 30)

            // Refreshing (a new snapshot) shows the new ones too.
            let refreshed = try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken, limit: 40)
            #expect(refreshed.count == 90)
            #expect(Set(refreshed).count == 90)
        }
    }

    @Test("the discover feed shows what the following feed does not")
    func discoverComplementsFollowing() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Explorer")
            let a = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "From A")
            let b = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "From B")
            let branded = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, brand: f.brand, title: "Branded in B")
            // Following nothing: an empty following feed, everything in discover.
            #expect(try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken).isEmpty)
            #expect(Set(try await t.readFeed("/api/v1/feed/discover", token: shopper.accessToken)) == [a.id, b.id, branded.id])

            _ = try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: shopper.accessToken)
            _ = try await t.send(.PUT, "/api/v1/me/follows/brands/\(f.brand.id!)", token: shopper.accessToken)
            #expect(Set(try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken)) == [a.id, branded.id])
            #expect(try await t.readFeed("/api/v1/feed/discover", token: shopper.accessToken) == [b.id])
            // Signed out: 401.
            #expect(try await t.send(.GET, "/api/v1/feed/following").status == .unauthorized)
        }
    }

    @Test("a 5 km radius never shows a store 6 km away in either feed; an override widens it")
    func radius() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            // 0.054° of latitude north of store A is 6.0 km.
            let far = try await StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media).create(.init(
                name: "Far Store \(UUID().uuidString.prefix(6))", street: "Norra vägen 1", city: "Kungälv", lat: 57.759, lng: 11.966,
                ownerEmail: f.ownerB.user.email))
            let distance = Geo.distanceKm(lat1: 57.705, lng1: 11.966, lat2: far.lat, lng2: far.lng)
            #expect(distance > 5.9 && distance < 6.1)
            let near = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Near")
            let nearB = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "Near B")
            let farFollowed = try await t.activeProduct(in: far.id!.idString, owner: f.ownerB, category: f.shirts, title: "Far")
            let shopper = try await t.signUp(name: "Walker")
            let profile = try await t.send(
                .PATCH, "/api/v1/me", json: #"{"homeLocation":{"lat":57.705,"lng":11.966},"radiusKm":5}"#, token: shopper.accessToken)
            #expect(profile.status == .ok, "\(profile.body.string)")
            _ = try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: shopper.accessToken)
            _ = try await t.send(.PUT, "/api/v1/me/follows/stores/\(far.id!)", token: shopper.accessToken)

            #expect(try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken) == [near.id])
            #expect(try await t.readFeed("/api/v1/feed/discover", token: shopper.accessToken) == [nearB.id])
            #expect(Set(try await t.readFeed("/api/v1/feed/following?radiusKm=10", token: shopper.accessToken)) == [near.id, farFollowed.id])
            #expect(try await t.readFeed("/api/v1/feed/following?city=kungälv", token: shopper.accessToken) == [farFollowed.id])
            // Somewhere else entirely: nothing near.
            #expect(try await t.readFeed("/api/v1/feed/discover?lat=59.33&lng=18.07", token: shopper.accessToken).isEmpty)
        }
    }

    @Test("gender and uploaded-within filters; bad overrides are 422 problems naming the parameter")
    func filters() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Filterer")
            let old = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Last month")
            let stored = try #require(try await Product.find(UUID(uuidString: old.id), on: t.app.db))
            stored.createdAt = t.clock.now().addingTimeInterval(-8 * 86_400)
            try await stored.save(on: t.app.db)
            let recent = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "This week")
            #expect(try await t.readFeed("/api/v1/feed/discover?uploadedWithin=week", token: shopper.accessToken) == [recent.id])
            #expect(Set(try await t.readFeed("/api/v1/feed/discover?uploadedWithin=month", token: shopper.accessToken)) == [old.id, recent.id])
            // The fixture's products are for women: a men's feed is empty, all genders show both.
            #expect(try await t.readFeed("/api/v1/feed/discover?gender=men", token: shopper.accessToken).isEmpty)
            #expect(try await t.readFeed("/api/v1/feed/discover?gender=women", token: shopper.accessToken).count == 2)

            for (query, field) in [("gender=kids", "gender"), ("radiusKm=7", "radiusKm"), ("lat=57.7", "lng"), ("uploadedWithin=year", "uploadedWithin"),
                                   ("lat=99&lng=1", "lat")] {
                let response = try await t.send(.GET, "/api/v1/feed/discover?\(query)", token: shopper.accessToken)
                #expect(response.status == .unprocessableEntity, "\(query)")
                #expect(try response.problem().fields.contains(field), "\(query): \(response.body.string)")
            }
            #expect(try await t.send(.GET, "/api/v1/feed/discover?cursor=nonsense", token: shopper.accessToken).status == .badRequest)
        }
    }

    @Test("a store past its usual monthly uploads gets lower sort keys")
    func heavyUploaderPenalty() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let spread = 6.0 * 3600
        let usual = FeedSortKey.key(createdAt: now, spread: spread, recentUploads: 10, random: 0)
        let heavy = FeedSortKey.key(createdAt: now, spread: spread, recentUploads: 450, random: 0)
        #expect(usual == now.timeIntervalSince1970)
        #expect(heavy == now.timeIntervalSince1970 - 2 * spread)
        let capped = FeedSortKey.key(createdAt: now, spread: spread, recentUploads: 10_000, random: 0)
        #expect(capped == now.timeIntervalSince1970 - 3 * spread)
    }
}
