import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// A search with words counts its facets from the matches' facet numbers on SQLite
/// (CreateProductSearchFacets, AddSearchFacetFilterColumns, issue 19), alone or with the filters
/// those rows hold. Its counts must be those read by id, whatever was written.
@Suite("Discovery: a search's facets counted by facet numbers")
struct SearchFacetNumbersTests {
    struct Expected: Equatable {
        var total: Int
        var stores: [String: Int]
        var categories: [String: Int]
        var brands: [String: Int]
        var colors: [String: Int]
    }

    @Test("a search by words, alone and with each filter the numbered rows hold, counts the facets a search by id counts, through every write of its products and stores")
    func numbersCountAsIDs() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let sql = t.app.db.sql
            let jackets = try await CategoryService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).create(name: "Jackets", gender: "women", parentID: f.tops.id)
            let coat = try await t.product(.init(title: "Oilskin coat", category: f.shirts, brand: f.brand, colors: ["yellow", "navy"]), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(
                .init(title: "Oilskin hat", category: jackets, gender: "men", price: 19_900, originalPrice: 29_900, colors: ["yellow"]),
                in: f.storeB, owner: f.ownerB)
            let hidden = try await t.product(.init(title: "Oilskin trousers", category: f.shirts, colors: ["green"], active: false), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Linen coat", category: f.shirts, colors: ["white"]), in: f.storeA, owner: f.ownerA)
            let (a, b) = (f.storeAID, f.storeBID)
            let (shirts, jacketsID, brand) = (f.shirts.id!.idString, jackets.id!.idString, f.brand.id!.idString)

            /// Words alone, then with each filter the numbered rows hold.
            func query(_ filter: (inout ProductSearchQuery) -> Void) -> ProductSearchQuery {
                var query = ProductSearchQuery(text: "oilskin")
                filter(&query)
                return query
            }
            let filteredQueries = [
                query { _ in }, query { $0.genders = ["women"] }, query { $0.genders = ["men"] }, query { $0.priceMax = 30_000 },
                query { $0.priceMin = 20_000; $0.priceMax = 60_000 }, query { $0.priceMax = 30_000; $0.priceCurrency = "EUR" },
                query { $0.onSale = true }, query { $0.brandIDs = [f.brand.id!] }, query { $0.categoryIDs = [f.tops.id!] },
                query { $0.storeIDs = [f.storeA.id!] }, query { $0.colors = ["green", "navy"] },
                // Store A's door (store B is 270 m away), then the whole town.
                query { $0.near = .init(lat: 57.705, lng: 11.966, radiusKm: 0.1) }, query { $0.near = .init(lat: 57.705, lng: 11.966, radiusKm: 5) },
            ]
            // Before any edit: the coat (women, 499 SEK, the brand, store A, yellow and navy) and the hat
            // (men, 199 SEK on sale from 299, store B, yellow) match, each query in turn.
            var filteredTotals: [Int]? = [2, 1, 1, 1, 1, 2, 1, 1, 2, 1, 1, 1, 2]

            func check(_ expected: Expected, _ step: String) async throws {
                let page = try await t.search("q=oilskin")
                func counts(_ facets: [SearchResultsBody.Facet]) -> [String: Int] {
                    Dictionary(uniqueKeysWithValues: facets.map { ($0.value, $0.count) })
                }
                let found = Expected(
                    total: page.total, stores: counts(page.facets.stores), categories: counts(page.facets.categories),
                    brands: counts(page.facets.brands), colors: counts(page.facets.colors))
                #expect(found == expected, "\(step)")
                guard sql.dialect.name == "sqlite" else { return }
                // The same searches counted both ways, labels included.
                let search = ProductSearch(db: t.app.db)
                var totals: [Int] = []
                for filtered in filteredQueries {
                    let query = try filtered.validated()
                    guard let (filters, numbered) = try await search.filtersBothWays(query) else {
                        totals.append(0)  // no listed store within the place
                        continue
                    }
                    let (byNumberTotal, byNumber) = try await search.facets(filters: filters, tokens: query.tokens, byNumber: numbered)
                    let (byIDTotal, byID) = try await search.facets(filters: filters, tokens: query.tokens, byNumber: nil)
                    #expect(byNumberTotal == byIDTotal, "\(step): \(query)")
                    #expect(byNumber.stores == byID.stores && byNumber.categories == byID.categories, "\(step): \(query)")
                    #expect(byNumber.brands == byID.brands && byNumber.colors == byID.colors, "\(step): \(query)")
                    totals.append(byNumberTotal)
                }
                if let filteredTotals { #expect(totals == filteredTotals, "\(step)") }
            }

            try await check(.init(
                total: 2, stores: [a: 1, b: 1], categories: [shirts: 1, jacketsID: 1], brands: [brand: 1],
                colors: ["yellow": 2, "navy": 1]), "two listed, one hidden")
            filteredTotals = nil

            // An edit of brand, category and colours.
            let owner = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
            let products = ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            var draft = try await products.draft(of: coat)
            draft.brandID = nil
            draft.categoryID = jackets.id
            draft.colors = ["green"]
            draft.gender = "men"
            draft.priceMinor = 9_900
            draft.originalPriceMinor = 19_900
            _ = try await products.replace(coat, draft: draft, by: owner)
            try await check(.init(
                total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 2], brands: [:], colors: ["yellow": 1, "green": 1]), "edited")

            // Shown; then its store members-only, suspended, public again.
            _ = try await products.setStatus(hidden, to: .active)
            try await check(.init(
                total: 3, stores: [a: 2, b: 1], categories: [jacketsID: 2, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 2]), "shown")
            try await Store.query(on: t.app.db).filter(\.$id == f.storeA.id!).set(\.$membersOnly, to: true).update()
            await t.app.atelier.catalogChanges.announce()  // written past the store service: drop ranked pages kept
            try await check(.init(total: 1, stores: [b: 1], categories: [jacketsID: 1], brands: [:], colors: ["yellow": 1]), "members only")
            try await Store.query(on: t.app.db).filter(\.$id == f.storeA.id!).set(\.$membersOnly, to: false).update()
            await t.app.atelier.catalogChanges.announce()
            let stores = StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media)
            _ = try await stores.setStatus(f.storeA, .suspended)
            try await check(.init(total: 1, stores: [b: 1], categories: [jacketsID: 1], brands: [:], colors: ["yellow": 1]), "suspended")
            _ = try await stores.setStatus(f.storeA, .active)

            // Deleted.
            try await products.delete(coat)
            try await check(.init(total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 1, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 1]), "deleted")

            // The migration numbers a catalogue that is already there.
            if sql.dialect.name == "sqlite" {
                try await AddSearchFacetFilterColumns().revert(on: t.app.db)
                try await CreateProductSearchFacets().revert(on: t.app.db)
                try await CreateProductSearchFacets().prepare(on: t.app.db)
                try await AddSearchFacetFilterColumns().prepare(on: t.app.db)
                try await check(.init(total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 1, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 1]), "migrated")
                let rows = try await sql.raw("SELECT COUNT(*) AS n FROM product_search_facets").first()
                let docs = try await sql.raw("SELECT COUNT(*) AS n FROM product_search_docs").first()
                #expect(try rows?.decode(column: "n", as: Int.self) == docs?.decode(column: "n", as: Int.self))
            }
        }
    }
}
