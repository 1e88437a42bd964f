import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct SuggestionsBody: Decodable {
    struct Suggestion: Decodable { var id: String; var label: String; var detail: String }
    var brands: [Suggestion]
    var stores: [Suggestion]
    var categories: [Suggestion]
    var popularCategories: [SearchResultsBody.Facet]
}

struct StoreSearchBody: Decodable {
    struct Hit: Decodable {
        struct StoreRef: Decodable { var id: String; var name: String; var city: String }
        var store: StoreRef
        var distanceMeters: Int?
        var openNow: Bool
    }
    var items: [Hit]
}

@Suite("Discovery: suggestions and store search")
struct SuggestAndStoreSearchTests {
    @Test("typing suggests brands, stores and categories by word prefix; a category filter suggests its busiest sub-categories")
    func suggestions() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let tag = String(UUID().uuidString.prefix(5)).lowercased()
            let admin = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            let brand = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
                .create(name: "Ørsted Knit \(tag)", logoID: nil, status: .approved, proposedBy: nil, by: admin)
            let categories = CategoryService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
            let knitwear = try await categories.create(name: "Knitwear \(tag)", gender: "women", parentID: f.tops.id)
            _ = try await t.product(.init(title: "One", category: f.shirts), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Two", category: knitwear), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "Three", category: knitwear), in: f.storeB, owner: f.ownerB)
            _ = try await t.product(.init(title: "Off", category: knitwear, active: false), in: f.storeB, owner: f.ownerB)

            let response = try await t.send(.GET, "/api/v1/search/suggest?q=knit%20\(tag)")
            #expect(response.status == .ok, "\(response.body.string)")
            let body = try response.content.decode(SuggestionsBody.self)
            #expect(body.brands.map(\.id) == [brand.id!.idString])
            #expect(body.categories.map(\.id) == [knitwear.id!.idString])
            #expect(body.categories.first?.detail.hasSuffix("Tops › Knitwear \(tag)") == true)
            let storeName = f.storeA.name.split(separator: " ").last!
            let stores = try await t.send(.GET, "/api/v1/search/suggest?q=\(storeName)").content.decode(SuggestionsBody.self)
            #expect(stores.stores.map(\.id).contains(f.storeAID))

            let popular = try await t.send(.GET, "/api/v1/search/suggest?categoryId=\(f.tops.id!)").content.decode(SuggestionsBody.self)
            #expect(popular.popularCategories.map(\.value) == [knitwear.id!.idString, f.shirts.id!.idString])
            #expect(popular.popularCategories.map(\.count) == [2, 1])
            let bad = try await t.send(.GET, "/api/v1/search/suggest?categoryId=\(UUID())")
            #expect(bad.status == .unprocessableEntity)
        }
    }

    @Test("stores by name, city and distance")
    func storeSearch() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let tag = String(UUID().uuidString.prefix(5)).lowercased()
            let service = StoreService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mailOutbox: t.app.atelier.mailOutbox, mediaLibrary: t.app.atelier.media)
            let near = try await service.create(.init(
                name: "Atelier Söder \(tag)", street: "Götgatan 1", city: "Stockholm", lat: 59.315, lng: 18.072, ownerEmail: f.ownerA.user.email))
            let far = try await service.create(.init(
                name: "Atelier Norr \(tag)", street: "Storgatan 1", city: "Umeå", lat: 63.826, lng: 20.263, ownerEmail: f.ownerA.user.email))
            func search(_ query: String) async throws -> StoreSearchBody {
                let response = try await t.send(.GET, "/api/v1/search/stores?\(query)")
                #expect(response.status == .ok, "\(response.body.string)")
                return try response.content.decode(StoreSearchBody.self)
            }
            #expect(Set(try await search("q=atelier%20\(tag)").items.map(\.store.id)) == [near.id!.idString, far.id!.idString])
            #expect(try await search("q=soder%20\(tag)").items.map(\.store.id) == [near.id!.idString])
            #expect(try await search("q=\(tag)&city=ume%C3%A5").items.map(\.store.id) == [far.id!.idString])
            let byDistance = try await search("q=\(tag)&lat=63.8&lng=20.2")
            #expect(byDistance.items.map(\.store.id) == [far.id!.idString, near.id!.idString])
            #expect((byDistance.items.first?.distanceMeters ?? 0) > 0)
            #expect(try await search("q=\(tag)&lat=59.3&lng=18.0&radiusKm=50").items.map(\.store.id) == [near.id!.idString])
            let bad = try await t.send(.GET, "/api/v1/search/stores?radiusKm=5")
            #expect(bad.status == .unprocessableEntity)
        }
    }
}
