import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// `sized_bm25`, the rank SQLite's search orders by (issue 19): it must give FTS5's `bm25` bit for
/// bit, on every row, for every kind of query the search writes, on Fluent's connections and on the
/// read pool's, also after the index's rows change.
@Suite("Discovery: full-text rank")
struct FullTextRankTests {
    @Test("equals bm25 on every match: one word, prefixes, several words, weights or none, after an edit and a removal")
    func equalsBM25() async throws {
        try await TestApp.with { t in
            guard t.app.db.sql.dialect.name == "sqlite" else { return }
            let f = try await t.catalogFixture()
            let titles = [
                "Sailcloth jacket", "Sailcloth sailcloth jacket", "Sail jacket in waxed cotton", "Cotton shirt",
                "Linen and cotton blend sailcloth trousers with a long name that goes on", "Jacket", "Sailor stripe top",
            ]
            var products: [Product] = []
            for (index, title) in titles.enumerated() {
                let description = String(repeating: "Sturdy cotton weave for the coast, sail after sail. ", count: index * 3)
                products.append(try await t.product(
                    .init(title: title, description: description, category: f.shirts), in: index % 2 == 0 ? f.storeA : f.storeB,
                    owner: index % 2 == 0 ? f.ownerA : f.ownerB))
            }
            let req = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
            var databases = [t.app.db.sql]
            if t.app.atelier.sqliteReads != nil { databases.append(req.readDatabase.sql) }
            let queries = ["\"sail\"*", "\"sailcloth\"*", "\"cotton\"* \"jacket\"*", "\"jacket\"", "\"co\"*", "\"nothing\"*"]
            let weightings = ["4.0, 1.0", "1.0", "", "0.5, 3.0, 9.0"]

            func compare(_ stage: String) async throws {
                var compared = 0
                let readBefore = FullTextRank.lengthsRead.load(ordering: .relaxed)
                for sql in databases {
                    for query in queries {
                        for weights in weightings {
                            let rows = try await sql.raw("""
                                SELECT rowid AS doc, bm25(product_search_fts\(unsafeRaw: weights.isEmpty ? "" : ", " + weights)) AS expected,
                                sized_bm25(product_search_fts\(unsafeRaw: weights.isEmpty ? "" : ", " + weights)) AS got
                                FROM product_search_fts WHERE product_search_fts MATCH \(bind: query)
                                """).all()
                            for row in rows {
                                let expected = try row.decode(column: "expected", as: Double.self)
                                let got = try row.decode(column: "got", as: Double.self)
                                let doc = try row.decode(column: "doc", as: Int.self)
                                #expect(got.bitPattern == expected.bitPattern, "\(stage): \(query) (\(weights)) row \(doc): \(got) vs \(expected)")
                                compared += 1
                            }
                        }
                    }
                }
                #expect(compared > 40 * databases.count, "\(stage): \(compared) rows compared")
                // Every row's length came through the blob handle (other tests only add to the count).
                #expect(FullTextRank.lengthsRead.load(ordering: .relaxed) - readBefore >= compared, "\(stage)")
            }
            try await compare("as made")

            // A title rewritten (its row's length changes) and a product taken out of the index: the
            // lengths read are the index's new ones.
            let edited = products[1]
            edited.title = "Sailcloth sailcloth sailcloth jacket, long edition with many more words"
            try await edited.save(on: t.app.db)
            try await SearchIndex(db: t.app.db).refresh(.products([edited.id!]))
            try await SearchIndex(db: t.app.db).remove(products[3].id!)
            try await compare("after an edit and a removal")

            // And the search ranks by it: the page through the API is the full ranking's.
            let query = try ProductSearchQuery(text: "sail").validated()
            let search = ProductSearch(db: t.app.db)
            let filters = try #require(try await search.filters(for: query))
            let everything = try await search.rankFully(query.tokens, filters: filters, sort: .relevance, cursor: nil, rows: 100)
            #expect(everything.count >= 4)
            #expect(try await t.searchAll("q=sail", limit: 2).map(\.id) == everything.map(\.id.idString))
        }
    }
}
