import Foundation
import SQLKit
import Testing

@testable import Atelier

@Suite("Discovery: the feed's statement plan")
struct FeedPlanTests {
    @Test("a following feed walks the feed index in sort-key order and stops after a page; it never gathers every product of the followed stores to sort them")
    func followingFeedWalksTheFeedIndex() async throws {
        try await TestApp.with { t in
            let sql = t.app.db.sql
            guard sql.dialect.name == "sqlite" else { return }  // PostgreSQL plans by its statistics; nothing to pin
            let query = FeedQuery(
                kind: .following, dialect: sql.dialect.name, asOf: Date(), followedStores: [UUID(), UUID(), UUID()],
                followedBrands: [UUID()], savedSearches: [], nearbyStores: nil, genders: ["women", "unisex"], uploadedSince: nil,
                cursor: nil, limit: 20)
            // The planner weighs the plans by ANALYZE's statistics; these are the benchmark catalogue's at
            // 1 000 000 products, where an index on the followed stores or brands looked cheaper than the walk.
            let plan = try await t.app.db.withConnection { connection in
                let db = connection.sql
                try await db.raw("ANALYZE").run()
                try await db.raw("DELETE FROM sqlite_stat1 WHERE tbl IN ('products', 'stores')").run()
                for (index, stat) in [
                    ("products_feed_idx", "1000000 500000 1 1 1 1 1 1"), ("products_store_status_idx", "1000000 5000 2500 1"),
                    ("products_brand_idx", "1000000 3323"), ("products_category_status_idx", "1000000 27778 13889 1 1 1"),
                    ("products_status_price_idx", "1000000 500000 528"), ("products_status_likes_idx", "1000000 500000 15625"),
                    ("products_search_cover_idx", "1000000 1 1 1 1 1 1 1 1 1 1 1 1"), ("sqlite_autoindex_products_1", "1000000 1"),
                ] {
                    try await db.raw("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('products', \(bind: index), \(bind: stat))").run()
                }
                try await db.raw("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('stores', 'stores_status_idx', '200 200 200 1')").run()
                try await db.raw("ANALYZE sqlite_schema").run()  // loads them
                return try await db.raw("EXPLAIN QUERY PLAN \(query.statement)").all()
                    .map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "\n")
            }
            print("Following feed plan:\n\(plan)")
            #expect(plan.contains("products_feed_idx"))
            #expect(!plan.contains("TEMP B-TREE FOR ORDER BY"))
            #expect(!plan.contains("MULTI-INDEX OR"))
        }
    }
}
