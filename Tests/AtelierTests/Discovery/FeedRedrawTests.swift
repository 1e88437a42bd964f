import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: daily re-draw of feed sort keys")
struct FeedRedrawTests {
    @Test("the re-draw moves recent keys within the spread, weighs on heavy uploaders, and old cursors are refused")
    func redraw() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shopper = try await t.signUp(name: "Night owl")
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: shopper.accessToken).status == .ok)
            var products: [Product] = []
            for index in 0..<6 { products.append(try await t.product(.init(title: "Piece \(index)", category: f.shirts), in: f.storeA, owner: f.ownerA)) }
            let first = try await t.send(.GET, "/api/v1/feed/following?limit=2", token: shopper.accessToken).content.decode(FeedPageBody.self)
            let cursor = try #require(first.nextCursor)

            t.clock.advance(by: 60)  // (within the access token's lifetime)
            let redraw = FeedSortKeyRedraw(db: t.app.db, core: t.app.core)
            #expect(try await redraw.redraw() >= 6)
            let spread = Double(t.app.atelier.config.feedSpreadHours) * 3600
            for product in products {
                let fresh = try #require(try await Product.find(product.id, on: t.app.db))
                #expect(abs(fresh.feedSortKey - fresh.createdAt.timeIntervalSince1970) <= spread + 0.001)
            }
            // A heavy uploader's keys sit lower by the penalty.
            let heavy = FeedSortKey.key(createdAt: Date(timeIntervalSince1970: 0), spread: spread, recentUploads: 300, random: 0)
            #expect(heavy == -spread)

            let stale = try await t.send(.GET, "/api/v1/feed/following?limit=2&cursor=\(cursor)", token: shopper.accessToken)
            #expect(stale.status == .conflict)
            #expect(stale.body.string.contains("start again from the top"))
            let again = try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken, limit: 2)
            #expect(Set(again) == Set(products.map { $0.id!.idString }) && again.count == 6)

            // On the web a "More" link from before the re-draw starts the feed again from the top.
            let cookie = try await CatalogWebTests().webSignIn(t, email: shopper.user.email!)
            let more = try await t.send(.GET, "/feed?tab=following&cursor=\(cursor)", headers: [("Accept", "text/html"), ("Cookie", cookie)])
            #expect(more.status == .seeOther)
            #expect(more.headers.first(name: .location) == "/feed?tab=following")
            let top = try await t.send(.GET, "/feed?tab=following", headers: [("Accept", "text/html"), ("Cookie", cookie)])
            #expect(top.status == .ok)
            #expect(top.body.string.contains("here it is from the top"))

            // The job runs at 04:00 UTC only, at most once a day.
            t.clock.set(Date(timeIntervalSince1970: 1_800_000_000 + 44 * 3600))  // Sunday 04:00 UTC
            #expect(try await redraw.runIfDue() != nil)
            #expect(try await redraw.runIfDue() == nil)
            t.clock.advance(by: 3600)
            #expect(try await redraw.runIfDue() == nil)
        }
    }

    @Test("the re-draw reads and re-keys in batches: every recent product once, one from before the window as it was")
    func batches() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            var recent: [Product] = []
            for index in 0..<7 { recent.append(try await t.product(.init(title: "Batch \(index)", category: f.shirts), in: f.storeA, owner: f.ownerA)) }
            let old = recent.removeLast()
            let sql = t.app.db.sql
            let now = t.app.atelier.clock.now()
            // Keys no draw gives, to see which products the re-draw wrote.
            try await sql.raw("UPDATE products SET feed_sort_key = -1").run()
            try await sql.raw("UPDATE products SET created_at = \(bind: now.addingTimeInterval(-40 * 86_400)), feed_sort_key = 42 WHERE id = \(bind: old.id!)").run()
            let inWindow = try await Product.query(on: t.app.db).filter(\.$createdAt >= now.addingTimeInterval(-FeedSortKeyRedraw.window)).count()
            #expect(inWindow >= recent.count)

            // Batches of two: four statements' worth for seven or more products, the last one short.
            let count = try await FeedSortKeyRedraw(db: t.app.db, core: t.app.core).redraw(batchSize: 2)
            #expect(count == inWindow)
            let spread = Double(t.app.atelier.config.feedSpreadHours) * 3600
            for product in try await Product.query(on: t.app.db).all() where product.id != old.id {
                #expect(product.feedSortKey != -1, "\(product.title) was not re-drawn")
                #expect(abs(product.feedSortKey - product.createdAt.timeIntervalSince1970) <= spread + 0.001)
            }
            #expect(try await Product.find(old.id, on: t.app.db)?.feedSortKey == 42)
            let record = try #require(try await FeedRedraw.query(on: t.app.db).sort(\.$redrawnAt, .descending).first())
            #expect(record.productCount == inWindow)
        }
    }
}
