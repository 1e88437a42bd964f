import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: who may see and change what")
struct CatalogAccessTests {
    @Test("staff of another store get 404 for inactive products and cannot change anything; signed out sees only active; admins do all")
    func accessRules() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let created = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken, json: TestApp.productJSON(category: f.shirts, photos: [photo]))
            #expect(created.status == .created, "\(created.body.string)")
            let product = try created.content.decode(ProductBody.self)
            #expect(product.status == "inactive")
            #expect(product.category.trail.count == 3)

            // Store B's owner: the inactive product does not exist for them, nor does A's inactive tab.
            let b = f.ownerB.accessToken
            #expect(try await t.send(.GET, "/api/v1/products/\(product.id)", token: b).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/products?status=inactive", token: b).status == .notFound)
            let base = "/api/v1/stores/\(f.storeAID)/products/\(product.id)"
            let photoB = try await t.uploadPhoto(token: b)
            #expect(try await t.send(.PUT, base, json: TestApp.productJSON(category: f.shirts, photos: [photoB]), token: b).status == .notFound)
            #expect(try await t.send(.POST, "\(base)/activate", token: b).status == .notFound)
            #expect(try await t.send(.DELETE, base, token: b).status == .notFound)
            #expect(try await t.send(.PATCH, "/api/v1/stores/\(f.storeAID)", json: #"{"about":"taken over"}"#, token: b).status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/stats", token: b).status == .notFound)
            #expect(try await t.createProduct(in: f.storeAID, token: b, json: TestApp.productJSON(category: f.shirts, photos: [photoB])).status == .notFound)
            // Through B's own store path, A's product is not there either.
            #expect(try await t.send(.POST, "/api/v1/stores/\(f.storeBID)/products/\(product.id)/activate", token: b).status == .notFound)
            let stillInactive = try #require(try await Product.find(UUID(uuidString: product.id), on: t.app.db))
            #expect(stillInactive.status == "inactive")
            #expect(try await Store.find(f.storeA.id, on: t.app.db)?.about == "")

            // Signed out: inactive is invisible, active is visible.
            #expect(try await t.send(.GET, "/api/v1/products/\(product.id)").status == .notFound)
            let activated = try await t.send(.POST, "\(base)/activate", token: f.ownerA.accessToken)
            #expect(activated.status == .ok)
            #expect(try await t.send(.GET, "/api/v1/products/\(product.id)").status == .ok)
            let publicList = try await t.send(.GET, "/api/v1/stores/\(f.storeA.slug)/products").content.decode(ProductPageBody.self)
            #expect(publicList.items.map(\.id) == [product.id])
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/products?status=inactive").status == .notFound)

            // Admins: may read and change any store's products.
            let admin = f.admin.accessToken
            #expect(try await t.send(.POST, "\(base)/deactivate", token: admin).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/products/\(product.id)", token: admin).status == .ok)
            let adminTab = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/products?status=inactive", token: admin)
            #expect(try adminTab.content.decode(ProductPageBody.self).items.map(\.id) == [product.id])
            #expect(try await t.send(.DELETE, base, token: admin).status == .noContent)
            #expect(try await Product.find(UUID(uuidString: product.id), on: t.app.db) == nil)
        }
    }

    @Test("a suspended store and its products disappear for everyone but admins and its staff")
    func suspension() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let product = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken, json: TestApp.productJSON(category: f.shirts, photos: [photo], status: "active"))
                .content.decode(ProductBody.self)
            #expect(try await t.send(.POST, "/api/v1/stores/\(f.storeAID)/suspend", token: f.ownerA.accessToken).status == .forbidden)
            #expect(try await t.send(.POST, "/api/v1/stores/\(f.storeAID)/suspend", token: f.admin.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/products/\(product.id)").status == .notFound)
            #expect(try await t.send(.GET, "/api/v1/products?categoryId=\(f.women.id!.idString)").content.decode(ProductCardPageBody.self).items.isEmpty)
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)", token: f.ownerA.accessToken).status == .ok)
            #expect(try await t.send(.POST, "/api/v1/stores/\(f.storeAID)/products/\(product.id)/deactivate", token: f.ownerA.accessToken).status == .conflict)
        }
    }
}

@Suite("Catalog: conditional GETs")
struct ConditionalGETTests {
    @Test("public reads carry an ETag and answer 304 to If-None-Match until the thing changes")
    func etags() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let first = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)")
            let tag = try #require(first.headers.first(name: .eTag))
            let again = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)", headers: [("If-None-Match", tag)])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let categories = try await t.send(.GET, "/api/v1/categories")
            #expect(categories.headers.first(name: .eTag) != nil)
            #expect(try await t.send(.PATCH, "/api/v1/stores/\(f.storeAID)", json: #"{"about":"New"}"#, token: f.ownerA.accessToken).status == .ok)
            let changed = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)", headers: [("If-None-Match", tag)])
            #expect(changed.status == .ok)
            #expect(changed.headers.first(name: .eTag) != tag)
        }
    }
}
