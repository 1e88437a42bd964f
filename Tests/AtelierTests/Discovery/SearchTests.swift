import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: product search")
struct SearchTests {
    @Test("\"blue shirt\" in [Shirts, T-shirts] at [A, B]: exactly the matching active products, facet counts equal to them")
    func acceptance() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let categories = CategoryService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            let tShirts = try await categories.create(name: "T-shirts", gender: "women", parentID: f.tops.id)
            let polos = try await categories.create(name: "Polos", gender: "women", parentID: tShirts.id)
            let dresses = try await categories.create(name: "Dresses", gender: "women", parentID: f.tops.id)
            let storeC = try await StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media).create(.init(
                name: "Store C \(UUID().uuidString.prefix(6))", street: "Kungsgatan 3", city: "Gothenburg", lat: 57.70, lng: 11.97,
                ownerEmail: f.ownerA.user.email))
            let admin = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            let harbour = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
                .create(name: "Blue Harbour \(UUID().uuidString.prefix(4))", logoID: nil, status: .approved, proposedBy: nil, by: admin)

            let linen = try await t.product(.init(title: "Blue linen shirt", category: f.shirts, price: 59_900, colors: ["blue"]), in: f.storeA, owner: f.ownerA)
            let polo = try await t.product(.init(title: "Blue polo shirt", category: polos, price: 29_900, colors: ["blue", "white"]), in: f.storeB, owner: f.ownerB)
            let tee = try await t.product(.init(title: "Navy tee", description: "Soft as a blue shirt, cut as a tee.", category: tShirts, price: 19_900, colors: ["navy"]), in: f.storeA, owner: f.ownerA)
            let branded = try await t.product(.init(title: "Striped shirt", category: tShirts, brand: harbour, price: 39_900, colors: ["white"]), in: f.storeB, owner: f.ownerB)
            // Not in the result: another store, another category, no "blue", inactive.
            _ = try await t.product(.init(title: "Blue shirt", category: f.shirts), in: storeC, owner: f.ownerA)
            _ = try await t.product(.init(title: "Blue shirt dress", category: dresses), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Red shirt", category: f.shirts, colors: ["red"]), in: f.storeB, owner: f.ownerB)
            _ = try await t.product(.init(title: "Blue shirt", category: f.shirts, active: false), in: f.storeA, owner: f.ownerA)

            let filters = "categoryId=\(f.shirts.id!)&categoryId=\(tShirts.id!)&storeId=\(f.storeAID)&storeId=\(f.storeBID)"
            let expected = Set([linen, polo, tee, branded].map { $0.id!.idString })
            let first = try await t.search("q=blue%20shirt&\(filters)")
            #expect(first.total == 4)
            #expect(first.sort == "relevance")
            let all = try await t.searchAll("q=blue%20shirt&\(filters)")
            #expect(all.count == 4)
            #expect(Set(all.map(\.id)) == expected)

            // Facets count the results: per category, store, brand and colour.
            func counts(_ facets: [SearchResultsBody.Facet]) -> [String: Int] {
                Dictionary(uniqueKeysWithValues: facets.map { ($0.value, $0.count) })
            }
            #expect(counts(first.facets.categories) == Dictionary(grouping: [linen, polo, tee, branded], by: \.categoryID.idString).mapValues(\.count))
            #expect(counts(first.facets.stores) == Dictionary(grouping: all, by: \.store.id).mapValues(\.count))
            #expect(counts(first.facets.brands) == [harbour.id!.idString: 1])
            #expect(counts(first.facets.colors) == ["blue": 2, "white": 2, "navy": 1])

            // Prefixes and accents, as typed.
            #expect(Set(try await t.searchAll("q=BL%C3%9C%20shi&\(filters)").map(\.id)) == expected)
            // Every sort pages through the same set exactly once, in its order.
            for sort in ["newest", "price_asc", "price_desc", "most_liked", "relevance"] {
                let sorted = try await t.searchAll("q=blue%20shirt&\(filters)&sort=\(sort)", limit: 3)
                #expect(sorted.count == 4 && Set(sorted.map(\.id)) == expected, "\(sort)")
                if sort == "price_asc" { #expect(sorted.map(\.price.amount) == [19_900, 29_900, 39_900, 59_900]) }
                if sort == "price_desc" { #expect(sorted.map(\.price.amount) == [59_900, 39_900, 29_900, 19_900]) }
                if sort == "newest" { #expect(sorted.map(\.id) == [branded, tee, polo, linen].map { $0.id!.idString }) }
            }
        }
    }

    @Test("filters: colour, size in stock, gender, price range, on sale, distance; words are optional")
    func filters() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let far = try await StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media).create(.init(
                name: "Far \(UUID().uuidString.prefix(6))", street: "Storgatan 1", city: "Malmö", lat: 55.605, lng: 13.004,
                ownerEmail: f.ownerB.user.email))
            let a = try await t.product(.init(title: "Wool coat", category: f.tops, gender: "women", price: 150_000, originalPrice: 200_000, colors: ["black"], sizes: [("M", 0), ("L", 2)]), in: f.storeA, owner: f.ownerA)
            let b = try await t.product(.init(title: "Rain coat", category: f.tops, gender: "unisex", price: 80_000, colors: ["yellow"], sizes: [("M", 3)]), in: f.storeB, owner: f.ownerB)
            let c = try await t.product(.init(title: "Suit", category: f.men, gender: "men", price: 300_000, colors: ["navy", "black"], sizes: [("50", 1)]), in: far, owner: f.ownerB)
            let stores = "storeId=\(f.storeAID)&storeId=\(f.storeBID)&storeId=\(far.id!)"
            func ids(_ query: String) async throws -> Set<String> { Set(try await t.searchAll("\(stores)&\(query)").map(\.id)) }
            let (ia, ib, ic) = (a.id!.idString, b.id!.idString, c.id!.idString)

            #expect(try await ids("sort=newest") == [ia, ib, ic])
            #expect(try await ids("color=black") == [ia, ic])
            #expect(try await ids("color=black&color=yellow") == [ia, ib, ic])
            #expect(try await ids("size=M") == [ib])  // the coat's M is out of stock
            #expect(try await ids("size=M&size=L") == [ia, ib])
            #expect(try await ids("gender=women") == [ia, ib])  // unisex counts for women
            #expect(try await ids("gender=men&color=black") == [ic])
            #expect(try await ids("priceMin=80000&priceMax=150000") == [ia, ib])
            #expect(try await ids("onSale=true") == [ia])
            #expect(try await ids("lat=57.705&lng=11.966&radiusKm=5") == [ia, ib])
            #expect(try await ids("lat=55.605&lng=13.004&radiusKm=1") == [ic])
            #expect(try await ids("q=coat&color=yellow") == [ib])
            #expect(try await ids("q=coat&lat=0&lng=0&radiusKm=1").isEmpty)
        }
    }

    @Test("the index follows every write: edits, deletes, and renames of brand, store and category")
    func indexKeptInSync() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let scope = "storeId=\(f.storeAID)&sort=newest"
            let product = try await t.product(.init(title: "Quilted jacket", category: f.shirts, brand: f.brand), in: f.storeA, owner: f.ownerA)
            let id = product.id!.idString
            func finds(_ words: String) async throws -> Bool {
                try await t.search("q=\(words)&\(scope)").items.map(\.id) == [id]
            }
            #expect(try await finds("quilted"))
            #expect(try await !finds("padded"))

            let owner = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
            let service = ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            var draft = try await service.draft(of: product)
            draft.title = "Padded jacket"
            _ = try await service.replace(product, draft: draft, by: owner)
            #expect(try await finds("padded"))
            #expect(try await !finds("quilted"))

            let admin = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            _ = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).update(f.brand, name: "Zebrano \(UUID().uuidString.prefix(4))", logoID: nil, by: admin)
            #expect(try await finds("zebrano"))
            _ = try await CategoryService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).update(f.tops, name: "Outerwearish", gender: nil)
            #expect(try await finds("outerwearish"))  // the product sits under Tops › Shirts
            var rename = StoreService.ProfileUpdate()
            rename.name = "Kvarnboden"
            _ = try await StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media).update(f.storeA, with: rename, by: admin)
            #expect(try await finds("kvarnbod"))

            _ = try await service.setStatus(product, to: .inactive)
            #expect(try await !finds("padded"))
            _ = try await service.setStatus(product, to: .active)
            #expect(try await finds("padded"))
            try await service.delete(product)
            #expect(try await !finds("padded"))
            let left = try await t.app.db.sql.raw("SELECT COUNT(*) AS n FROM product_search_docs WHERE product_id = \(bind: product.id!)").first()
            #expect(try left?.decode(column: "n", as: Int.self) == 0)
        }
    }

    @Test("ranking by relevance, filters and facets follow every write of the product (SQLite reads them from the search keys)")
    func relevanceAndFacetsKeptInSync() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let jackets = try await CategoryService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media).create(name: "Jackets", gender: "women", parentID: f.tops.id)
            let product = try await t.product(.init(title: "Quilted jacket", category: f.shirts, price: 49_900, colors: ["white"]), in: f.storeA, owner: f.ownerA)
            let id = product.id!.idString
            func search(_ filters: String = "") async throws -> (ids: [String], total: Int, categories: [String: Int], colors: [String: Int]) {
                let page = try await t.search("q=quilted&storeId=\(f.storeAID)\(filters)")
                #expect(page.sort == "relevance")
                return (page.items.map(\.id), page.total,
                        Dictionary(uniqueKeysWithValues: page.facets.categories.map { ($0.value, $0.count) }),
                        Dictionary(uniqueKeysWithValues: page.facets.colors.map { ($0.value, $0.count) }))
            }
            var found = try await search()
            #expect(found.ids == [id] && found.total == 1)
            #expect(found.categories == [f.shirts.id!.idString: 1] && found.colors == ["white": 1])
            #expect(try await search("&priceMax=30000").total == 0)

            // An edit of price, colours, category and gender: filters and facets see the new values.
            let owner = try #require(try await User.find(UUID(uuidString: f.ownerA.user.id), on: t.app.db))
            let service = ProductService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            var draft = try await service.draft(of: product)
            draft.priceMinor = 25_000
            draft.colors = ["black", "red"]
            draft.categoryID = jackets.id
            draft.gender = "unisex"
            _ = try await service.replace(product, draft: draft, by: owner)
            found = try await search("&priceMax=30000")
            #expect(found.ids == [id] && found.total == 1)
            #expect(found.categories == [jackets.id!.idString: 1] && found.colors == ["black": 1, "red": 1])
            #expect(try await search("&priceMin=40000").total == 0)
            #expect(try await search("&color=white").total == 0)
            #expect(try await search("&categoryId=\(f.shirts.id!)").total == 0)

            // Hidden, shown, deleted.
            _ = try await service.setStatus(product, to: .inactive)
            found = try await search()
            #expect(found.ids.isEmpty && found.total == 0 && found.colors.isEmpty)
            _ = try await service.setStatus(product, to: .active)
            #expect(try await search().ids == [id])
            try await service.delete(product)
            found = try await search()
            #expect(found.ids.isEmpty && found.total == 0)
            let sql = t.app.db.sql
            if sql.dialect.name == "sqlite" {
                let left = try await sql.raw("SELECT COUNT(*) AS n FROM product_search_keys WHERE id = \(bind: product.id!)").first()
                #expect(try left?.decode(column: "n", as: Int.self) == 0)
            }
        }
    }

    @Test("bad input is a 4xx problem naming the field")
    func badInput() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            for (query, field) in [("color=teal", "color"), ("priceMin=500&priceMax=100", "priceMax"), ("categoryId=nope", "categoryId"),
                                   ("categoryId=\(UUID())", "categoryId"), ("gender=kids", "gender"), ("lat=57", "lng"),
                                   ("lat=99&lng=0", "lat"), ("lat=57&lng=11&radiusKm=0", "radiusKm"), ("radiusKm=5", "radiusKm"),
                                   ("priceMin=-1", "priceMin"), ("q=\(String(repeating: "a", count: 201))", "q")] {
                let response = try await t.send(.GET, "/api/v1/search/products?\(query)")
                #expect(response.status == .unprocessableEntity, "\(query): \(response.body.string)")
                #expect(response.body.string.contains("\"\(field)\""), "\(query): \(response.body.string)")
            }
            _ = try await t.product(.init(title: "Shirt one", category: f.shirts), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Shirt two", category: f.shirts), in: f.storeA, owner: f.ownerA)
            let page = try await t.search("q=shirt&storeId=\(f.storeAID)&limit=1&sort=price_asc")
            let cursor = try #require(page.nextCursor)
            let wrongSort = try await t.send(.GET, "/api/v1/search/products?q=shirt&storeId=\(f.storeAID)&limit=1&sort=newest&cursor=\(cursor)")
            #expect(wrongSort.status == .badRequest)
            let garbage = try await t.send(.GET, "/api/v1/search/products?cursor=%21%21")
            #expect(garbage.status == .badRequest)
        }
    }
}
