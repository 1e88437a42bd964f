import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: ranked search pages kept for a while")
struct SearchCacheTests {
    @Test("catalogue writes show at once; a change behind the app's back shows when the page expires")
    func freshness() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let first = try await t.product(.init(title: "Quilted vest", category: f.tops), in: f.storeA, owner: f.ownerA)
            #expect(try await t.search("q=quilted").items.map(\.id) == [first.id!.idString])

            // Created, renamed, deactivated through the app: the next search sees it.
            let second = try await t.product(.init(title: "Quilted coat", category: f.tops), in: f.storeB, owner: f.ownerB)
            #expect(Set(try await t.search("q=quilted").items.map(\.id)) == Set([first, second].map { $0.id!.idString }))
            _ = try await ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).setStatus(second, to: .inactive)
            #expect(try await t.search("q=quilted").items.map(\.id) == [first.id!.idString])

            // Hidden behind the app's back (as another instance would). Signed in (no kept answer):
            // gone from the items at once, since bodies are read fresh, while the ranked page (the
            // total) is kept until it expires. Signed out, the whole answer is kept for its lifetime.
            let sql = t.app.db.sql
            try await sql.raw("UPDATE products SET status = 'inactive' WHERE id = \(bind: first.id!)").run()
            func signedIn() async throws -> SearchResultsBody {
                let response = try await t.send(.GET, "/api/v1/search/products?q=quilted", token: f.ownerB.accessToken)
                #expect(response.status == .ok)
                return try response.content.decode(SearchResultsBody.self)
            }
            let cached = try await signedIn()
            #expect(cached.items.isEmpty)
            #expect(cached.total == 1)
            #expect(try await t.search("q=quilted").items.map(\.id) == [first.id!.idString])
            t.clock.advance(by: TimeInterval(t.app.atelier.config.searchCacheSeconds + 1))
            #expect(try await signedIn().total == 0)
            #expect(try await t.search("q=quilted").total == 0)
        }
    }

    @Test("the cache keeps no page computed while the catalogue changed, and forgets the oldest when full")
    func generations() {
        let cache = SearchResultCache(lifetime: 30, capacity: 4)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let page = RankedSearchPage(ids: [UUID()], nextCursor: nil, total: 1, facets: .init())
        let before = cache.generation
        cache.invalidate()
        cache.store(page, for: "stale", generation: before, now: now)
        #expect(cache.value(for: "stale", now: now) == nil)
        for index in 0..<6 { cache.store(page, for: "k\(index)", generation: cache.generation, now: now + Double(index)) }
        #expect(cache.value(for: "k5", now: now + 6)?.ids == page.ids)
        #expect(cache.value(for: "k0", now: now + 6) == nil)
        #expect(cache.value(for: "k5", now: now + 40) == nil)
    }

    @Test("a cache bounded by cost keeps the newest values within it and never one larger than it all")
    func costBound() {
        let cache = GenerationCache<String>(lifetime: 30, capacity: 10) { $0.count }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        cache.store("aaaaa", for: "a", generation: cache.generation, now: now)
        cache.store("bbbbb", for: "b", generation: cache.generation, now: now + 1)
        #expect(cache.value(for: "a", now: now + 2) == "aaaaa")
        cache.store("cc", for: "c", generation: cache.generation, now: now + 2)
        #expect(cache.value(for: "a", now: now + 3) == nil)
        #expect(cache.value(for: "b", now: now + 3) == "bbbbb")
        #expect(cache.value(for: "c", now: now + 3) == "cc")
        cache.store(String(repeating: "x", count: 11), for: "x", generation: cache.generation, now: now + 3)
        #expect(cache.value(for: "x", now: now + 3) == nil)
    }
}
