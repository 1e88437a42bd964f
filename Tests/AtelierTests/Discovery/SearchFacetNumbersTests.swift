import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// A search by its words alone counts its facets from the matches' facet numbers on SQLite
/// (CreateProductSearchFacets, issue 19). Its counts must be those read by id, whatever was written.
@Suite("Discovery: a search's facets counted by facet numbers")
struct SearchFacetNumbersTests {
    struct Expected: Equatable {
        var total: Int
        var stores: [String: Int]
        var categories: [String: Int]
        var brands: [String: Int]
        var colors: [String: Int]
    }

    @Test("a search by words alone counts the facets a search by id counts, through every write of its products and stores")
    func numbersCountAsIDs() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let sql = t.app.db as! any SQLDatabase
            let jackets = try await CategoryService(db: t.app.db, services: t.app.atelier).create(name: "Jackets", gender: "women", parentID: f.tops.id)
            let coat = try await t.product(.init(title: "Oilskin coat", category: f.shirts, brand: f.brand, colors: ["yellow", "navy"]), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Oilskin hat", category: jackets, colors: ["yellow"]), in: f.storeB, owner: f.ownerB)
            let hidden = try await t.product(.init(title: "Oilskin trousers", category: f.shirts, colors: ["green"], active: false), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Linen coat", category: f.shirts, colors: ["white"]), in: f.storeA, owner: f.ownerA)
            let (a, b) = (f.storeAID, f.storeBID)
            let (shirts, jacketsID, brand) = (f.shirts.id!.idString, jackets.id!.idString, f.brand.id!.idString)

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
                // The same search counted both ways, labels included.
                let query = try ProductSearchQuery(text: "oilskin").validated()
                let search = ProductSearch(db: t.app.db)
                let filters = try #require(try await search.filters(for: query))
                let (byNumberTotal, byNumber) = try await search.facets(filters: filters, tokens: query.tokens, byNumbers: true)
                let (byIDTotal, byID) = try await search.facets(filters: filters, tokens: query.tokens, byNumbers: false)
                #expect(byNumberTotal == byIDTotal, "\(step)")
                #expect(byNumber.stores == byID.stores && byNumber.categories == byID.categories, "\(step)")
                #expect(byNumber.brands == byID.brands && byNumber.colors == byID.colors, "\(step)")
            }

            try await check(.init(
                total: 2, stores: [a: 1, b: 1], categories: [shirts: 1, jacketsID: 1], brands: [brand: 1],
                colors: ["yellow": 2, "navy": 1]), "two listed, one hidden")

            // An edit of brand, category and colours.
            let owner = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
            let products = ProductService(db: t.app.db, services: t.app.atelier)
            var draft = try await products.draft(of: coat)
            draft.brandID = nil
            draft.categoryID = jackets.id
            draft.colors = ["green"]
            _ = try await products.replace(coat, draft: draft, by: owner)
            try await check(.init(
                total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 2], brands: [:], colors: ["yellow": 1, "green": 1]), "edited")

            // Shown; then its store members-only, suspended, public again.
            _ = try await products.setStatus(hidden, to: .active)
            try await check(.init(
                total: 3, stores: [a: 2, b: 1], categories: [jacketsID: 2, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 2]), "shown")
            try await Store.query(on: t.app.db).filter(\.$id == f.storeA.id!).set(\.$membersOnly, to: true).update()
            await t.app.atelier.catalogChanged()  // written past the store service: drop ranked pages kept
            try await check(.init(total: 1, stores: [b: 1], categories: [jacketsID: 1], brands: [:], colors: ["yellow": 1]), "members only")
            try await Store.query(on: t.app.db).filter(\.$id == f.storeA.id!).set(\.$membersOnly, to: false).update()
            await t.app.atelier.catalogChanged()
            let stores = StoreService(db: t.app.db, services: t.app.atelier)
            _ = try await stores.setStatus(f.storeA, .suspended)
            try await check(.init(total: 1, stores: [b: 1], categories: [jacketsID: 1], brands: [:], colors: ["yellow": 1]), "suspended")
            _ = try await stores.setStatus(f.storeA, .active)

            // Deleted.
            try await products.delete(coat)
            try await check(.init(total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 1, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 1]), "deleted")

            // The migration numbers a catalogue that is already there.
            if sql.dialect.name == "sqlite" {
                try await CreateProductSearchFacets().revert(on: t.app.db)
                try await CreateProductSearchFacets().prepare(on: t.app.db)
                try await check(.init(total: 2, stores: [a: 1, b: 1], categories: [jacketsID: 1, shirts: 1], brands: [:], colors: ["yellow": 1, "green": 1]), "migrated")
                let rows = try await sql.raw("SELECT COUNT(*) AS n FROM product_search_facets").first()
                let docs = try await sql.raw("SELECT COUNT(*) AS n FROM product_search_docs").first()
                #expect(try rows?.decode(column: "n", as: Int.self) == docs?.decode(column: "n", as: Int.self))
            }
        }
    }
}
