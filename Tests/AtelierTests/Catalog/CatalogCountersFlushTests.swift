import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Product views flushed in batches of rows (issue 19)")
struct CatalogCountersFlushTests {
    @Test("a flush of more product-days than one statement takes counts every existing product once and skips deleted ones")
    func manyProducts() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let first = try #require(try await Product.find(UUID(uuidString: try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts).id), on: t.app.db))
            let second = try #require(try await Product.find(UUID(uuidString: try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Wool coat").id), on: t.app.db))
            let counters = t.app.atelier.catalogCounters
            let phantomStore = UUID()
            // 450 products that no longer exist (deleted since their pages were read), around two that do.
            for _ in 0..<450 { await counters.add(.view, productID: UUID(), storeID: phantomStore) }
            for _ in 0..<3 { await counters.add(.view, productID: first.id!, storeID: f.storeA.id!) }
            await counters.add(.view, productID: second.id!, storeID: f.storeA.id!)
            await counters.add(.shareVisit, productID: second.id!, storeID: f.storeA.id!)
            #expect(try await counters.flush(on: t.app.db) == 452)
            #expect(CatalogCounters.rowsPerStatement < 452)

            let sql = t.app.db.sql
            let rows = try await sql.raw("SELECT product_id, views, share_visits FROM product_daily_stats").all()
            var byProduct: [UUID: (Int, Int)] = [:]
            for row in rows {
                byProduct[try row.decode(column: "product_id", as: UUID.self)] =
                    (try row.decode(column: "views", as: Int.self), try row.decode(column: "share_visits", as: Int.self))
            }
            #expect(byProduct.count == 2)
            #expect(byProduct[first.id!].map { $0 == (3, 0) } == true)
            #expect(byProduct[second.id!].map { $0 == (1, 1) } == true)
            let store = try await sql.raw("SELECT views, share_visits FROM store_daily_stats WHERE store_id = \(bind: f.storeA.id!)").first()
            #expect(try store?.decode(column: "views", as: Int.self) == 4)
            #expect(try store?.decode(column: "share_visits", as: Int.self) == 1)
            // A second flush adds to the same days.
            await counters.add(.view, productID: first.id!, storeID: f.storeA.id!)
            #expect(try await counters.flush(on: t.app.db) == 1)
            let again = try await sql.raw("SELECT views FROM product_daily_stats WHERE product_id = \(bind: first.id!)").first()
            #expect(try again?.decode(column: "views", as: Int.self) == 4)
        }
    }

    @Test("stores' likes of several days, with views on one of them, written in one flush: each store-day once, a deleted store skipped")
    func storeLikes() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try #require(try await Product.find(UUID(uuidString: try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts).id), on: t.app.db))
            let counters = t.app.atelier.catalogCounters
            let (storeA, storeB) = (f.storeA.id!, f.storeB.id!)
            let today = StatsDay.string(t.clock.now()), yesterday = StatsDay.string(t.clock.now().addingTimeInterval(-86_400))
            await counters.add(.view, productID: product.id!, storeID: storeA)
            await counters.addLikes([storeA: 3, storeB: 1, UUID(): 5], day: today)
            await counters.addLikes([storeA: -1, storeB: 0], day: today)
            await counters.addLikes([storeA: 2], day: yesterday)
            // One product-day of views; store-days A today, B today, A yesterday, and the deleted store's.
            #expect(try await counters.flush(on: t.app.db) == 5)
            let rows = try await t.app.db.sql.raw("SELECT store_id, day, views, likes FROM store_daily_stats").all()
            var found: [String: [Int]] = [:]
            for row in rows {
                let store = try row.decode(column: "store_id", as: UUID.self) == storeA ? "A" : "B"
                found["\(store) \(try row.decode(column: "day", as: String.self))"] =
                    [try row.decode(column: "views", as: Int.self), try row.decode(column: "likes", as: Int.self)]
            }
            #expect(found == ["A \(today)": [1, 2], "B \(today)": [0, 1], "A \(yesterday)": [0, 2]])
            #expect(try await counters.flush(on: t.app.db) == 0)
        }
    }
}
