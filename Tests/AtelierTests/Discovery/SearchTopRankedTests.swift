import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// A search filtered by its words alone ranks on the full-text index first and filters only the best
/// candidates (SQLite, issue 19). Its pages must be those of the full ranking, ties included.
@Suite("Discovery: search ranked from its best candidates")
struct SearchTopRankedTests {
    @Test("every page from the best candidates is the full ranking's page, or the full ranking is asked for")
    func pagesMatchFullRanking() async throws {
        try await TestApp.with { t in
            guard t.app.db.sql.dialect.name == "sqlite" else { return }
            let f = try await t.catalogFixture()
            _ = try await t.product(.init(title: "Sailcloth sailcloth jacket", category: f.shirts), in: f.storeA, owner: f.ownerA)
            // Four products with the same rank, and a fifth like them that is hidden: filtered out
            // after ranking, it is still a candidate.
            for _ in 0..<4 { _ = try await t.product(.init(title: "Sailcloth jacket", category: f.shirts), in: f.storeB, owner: f.ownerB) }
            _ = try await t.product(.init(title: "Sailcloth jacket", category: f.shirts, active: false), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Sailcloth", description: String(repeating: "Sturdy weave for the coast. ", count: 8), category: f.shirts), in: f.storeA, owner: f.ownerA)

            let query = try ProductSearchQuery(text: "sailcloth").validated()
            #expect(!query.hasFilters)
            let search = ProductSearch(db: t.app.db)
            let filters = try #require(try await search.filters(for: query))
            let everything = try await search.rankFully(query.tokens, filters: filters, sort: .relevance, cursor: nil, rows: 100)
            #expect(everything.count == 6)
            #expect(Set(everything[1...4].map(\.value)).count == 1, "the four alike share a rank")

            var exactPages = 0, fallbacks = 0
            for rows in 1...4 {
                for candidates in 1...8 {
                    for start in 0..<everything.count {
                        let cursor = start == 0 ? nil : SearchCursor(sort: .relevance, value: everything[start - 1].value, id: everything[start - 1].id)
                        let expected = Array(everything[start...].prefix(rows))
                        guard let page = try await search.topRanked(query.tokens, filters: filters, cursor: cursor, rows: rows, candidates: candidates) else {
                            #expect(candidates <= 7, "with every match a candidate the page is always exact")
                            fallbacks += 1
                            continue
                        }
                        exactPages += 1
                        #expect(page.map(\.id) == expected.map(\.id), "rows \(rows), candidates \(candidates), from \(start)")
                        #expect(page.map(\.value) == expected.map(\.value))
                    }
                }
            }
            #expect(exactPages > 0 && fallbacks > 0)
            // The best, then three of the four alike: the worst candidate shares the last row's rank.
            #expect(try await search.topRanked(query.tokens, filters: filters, cursor: nil, rows: 4, candidates: 4) == nil)

            // Through the API, paged: the full ranking's order.
            let paged = try await t.searchAll("q=sailcloth", limit: 2)
            #expect(paged.map(\.id) == everything.map(\.id.idString))
        }
    }

    @Test("a ranking on the numbered rows gives the full ranking's pages, ties and cursors included, with and without filters")
    func numberedRankingMatchesFullRanking() async throws {
        try await TestApp.with { t in
            guard t.app.db.sql.dialect.name == "sqlite" else { return }
            let f = try await t.catalogFixture()
            // Ranks shared by several products, some of them filtered out (hidden, men's, dearer).
            _ = try await t.product(.init(title: "Sailcloth sailcloth jacket", category: f.shirts), in: f.storeA, owner: f.ownerA)
            for index in 0..<6 {
                _ = try await t.product(
                    .init(title: "Sailcloth jacket", category: f.shirts, gender: index % 3 == 0 ? "men" : "women", price: index < 3 ? 19_900 : 59_900),
                    in: index % 2 == 0 ? f.storeA : f.storeB, owner: index % 2 == 0 ? f.ownerA : f.ownerB)
            }
            _ = try await t.product(.init(title: "Sailcloth jacket", category: f.shirts, active: false), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Sailcloth", description: String(repeating: "Sturdy weave for the coast. ", count: 8), category: f.shirts), in: f.storeB, owner: f.ownerB)

            let search = ProductSearch(db: t.app.db)
            var queries = [ProductSearchQuery(text: "sailcloth"), ProductSearchQuery(text: "sailcloth", genders: ["women"])]
            queries.append(ProductSearchQuery(text: "sailcloth", priceMax: 30_000))
            queries.append(ProductSearchQuery(text: "sailcloth jacket", storeIDs: [f.storeB.id!]))
            var compared = 0
            for raw in queries {
                let query = try raw.validated()
                let (filters, numbered) = try #require(try await search.filtersBothWays(query))
                let everything = try await search.rankFully(query.tokens, filters: filters, sort: .relevance, cursor: nil, rows: 100)
                #expect(everything.count >= 3, "\(query)")
                for rows in 1...4 {
                    for start in 0...everything.count {
                        let cursor = start == 0 ? nil : SearchCursor(sort: .relevance, value: everything[start - 1].value, id: everything[start - 1].id)
                        let expected = Array(everything[start...].prefix(rows))
                        let page = try await search.rankedByNumber(query.tokens, numberedFilters: numbered, cursor: cursor, rows: rows)
                        #expect(page.map(\.id) == expected.map(\.id), "\(query): rows \(rows), from \(start)")
                        #expect(page.map(\.value) == expected.map(\.value), "\(query): rows \(rows), from \(start)")
                        compared += 1
                    }
                }
            }
            #expect(compared > 0)

            // Through the API, paged: the full ranking's order.
            let women = try ProductSearchQuery(text: "sailcloth", genders: ["women"]).validated()
            let womenFilters = try #require(try await search.filters(for: women))
            let everything = try await search.rankFully(women.tokens, filters: womenFilters, sort: .relevance, cursor: nil, rows: 100)
            let paged = try await t.searchAll("q=sailcloth&gender=women", limit: 2)
            #expect(paged.map(\.id) == everything.map(\.id.idString))
        }
    }

    @Test("a ranking with its facets in one pass gives the pages and the facets of the two statements, for every cursor")
    func onePassMatchesTwoStatements() async throws {
        try await TestApp.with { t in
            guard t.app.db.sql.dialect.name == "sqlite" else { return }
            let f = try await t.catalogFixture()
            let admin = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            let other = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
                .create(name: "Kustbris", logoID: nil, status: .approved, proposedBy: nil, by: admin)
            // Shared ranks, and brands, categories, stores and colours that differ, some filtered out.
            for index in 0..<7 {
                _ = try await t.product(
                    .init(title: index == 0 ? "Sailcloth sailcloth jacket" : "Sailcloth jacket", category: index % 2 == 0 ? f.shirts : f.tops,
                          brand: index % 3 == 0 ? other : f.brand, gender: index % 3 == 0 ? "men" : "women",
                          price: index < 4 ? 19_900 : 59_900, colors: index % 2 == 0 ? ["navy", "white"] : ["red"]),
                    in: index % 2 == 0 ? f.storeA : f.storeB, owner: index % 2 == 0 ? f.ownerA : f.ownerB)
            }
            _ = try await t.product(.init(title: "Sailcloth jacket", category: f.shirts, active: false), in: f.storeA, owner: f.ownerA)

            let search = ProductSearch(db: t.app.db)
            var compared = 0
            for raw in [ProductSearchQuery(text: "sailcloth", genders: ["women"]), ProductSearchQuery(text: "sailcloth", priceMax: 30_000),
                        ProductSearchQuery(text: "sailcloth jacket", brandIDs: [f.brand.id!])] {
                let query = try raw.validated()
                let (filters, numbered) = try #require(try await search.filtersBothWays(query))
                let everything = try await search.rankFully(query.tokens, filters: filters, sort: .relevance, cursor: nil, rows: 100)
                let (total, facets) = try await search.facets(filters: filters, tokens: query.tokens, byNumber: numbered)
                #expect(total == everything.count && total >= 2, "\(query)")
                #expect(facets.brands.count + facets.categories.count + facets.stores.count + facets.colors.count >= 4)
                for rows in 1...3 {
                    for start in 0...everything.count {
                        let cursor = start == 0 ? nil : SearchCursor(sort: .relevance, value: everything[start - 1].value, id: everything[start - 1].id)
                        let expected = try await search.rankedByNumber(query.tokens, numberedFilters: numbered, cursor: cursor, rows: rows)
                        let onePass = try await search.rankedByNumberWithFacets(query.tokens, numberedFilters: numbered, cursor: cursor, rows: rows)
                        #expect(onePass.keys.map(\.id) == expected.map(\.id), "\(query): rows \(rows), from \(start)")
                        #expect(onePass.keys.map(\.value) == expected.map(\.value))
                        // Past the last row nothing is counted; otherwise every match, whatever the cursor.
                        if expected.isEmpty {
                            #expect(onePass.facets == nil)
                        } else {
                            let counted = try #require(onePass.facets)
                            #expect(counted.0 == total)
                            #expect(counted.1.brands == facets.brands && counted.1.categories == facets.categories)
                            #expect(counted.1.stores == facets.stores && counted.1.colors == facets.colors)
                        }
                        compared += 1
                    }
                }
            }
            #expect(compared > 0)

            // Through the API: the first page's facets are those of every match.
            let page = try await t.search("q=sailcloth&gender=women&limit=2")
            #expect(page.total == 4)
            #expect(page.facets.colors.map(\.label).sorted() == ["navy", "red", "white"])
            #expect(page.facets.colors.allSatisfy { $0.count == 2 })
            // A cursor from the last row: an empty page, whose facets the two statements count.
            let women = try ProductSearchQuery(text: "sailcloth", genders: ["women"]).validated()
            let womenFilters = try #require(try await search.filters(for: women))
            let last = try #require(try await search.rankFully(women.tokens, filters: womenFilters, sort: .relevance, cursor: nil, rows: 100).last)
            let past = try await t.search("q=sailcloth&gender=women&limit=2&cursor=\(SearchCursor(sort: .relevance, value: last.value, id: last.id).encoded)")
            #expect(past.items.isEmpty && past.nextCursor == nil)
            #expect(past.total == 4 && past.facets.colors == page.facets.colors && past.facets.stores == page.facets.stores)
        }
    }

    @Test("a query has filters when anything but its words and sort narrows it")
    func hasFilters() throws {
        #expect(try !ProductSearchQuery(text: "shirt", sort: .priceAsc).validated().hasFilters)
        #expect(try !ProductSearchQuery(text: "shirt", styles: []).validated().hasFilters)
        #expect(try ProductSearchQuery(text: "shirt", colors: ["red"]).validated().hasFilters)
        #expect(try ProductSearchQuery(text: "shirt", onSale: true).validated().hasFilters)
        #expect(try ProductSearchQuery(text: "shirt", near: .init(lat: 57.7, lng: 11.9, radiusKm: 5)).validated().hasFilters)
    }
}
