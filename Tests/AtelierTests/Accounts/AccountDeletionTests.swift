import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// What an account's deletion keeps (a store's photos), removes (likes, follows, private media)
/// and repairs (counters, a store left without owner). Runs on SQLite and on PostgreSQL.
@Suite("Account deletion")
struct AccountDeletionTests {
    private func deleteAccount(_ t: TestApp, _ session: Session) async throws {
        let response = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: session.accessToken)
        #expect(response.status == .noContent, "\(response.body.string)")
    }

    @Test("a staff member's deletion keeps every photo of the 5 products they made, and the products still save")
    func staffDeletionKeepsStorePhotos() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let staff = try await t.signUp(name: "Staff")
            let staffUser = try #require(try await User.find(UUID(uuidString: staff.user.id), on: t.app.db))
            _ = try await StaffService(db: t.app.db, core: t.app.core, mailOutbox: t.app.atelier.mailOutbox).addMember(staffUser, to: f.storeA, role: .staff)

            var products: [(id: String, photos: [String])] = []
            for index in 0..<5 {
                let photos = [try await t.uploadPhoto(token: staff.accessToken, width: 300 + index, height: 400),
                              try await t.uploadPhoto(token: staff.accessToken, width: 320 + index, height: 400)]
                let created = try await t.createProduct(
                    in: f.storeAID, token: staff.accessToken,
                    json: TestApp.productJSON(title: "Shirt \(index)", category: f.shirts, photos: photos, status: "active"))
                #expect(created.status == .created, "\(created.body.string)")
                products.append((try created.content.decode(ProductBody.self).id, photos))
            }

            try await deleteAccount(t, staff)

            for product in products {
                let read = try await t.send(.GET, "/api/v1/products/\(product.id)")
                #expect(read.status == .ok)
                let body = try read.content.decode(ProductBody.self)
                #expect(body.photos.map(\.id) == product.photos, "product \(product.id) lost photos")
                for variant in body.photos.flatMap(\.variants) {
                    #expect(try await t.fetch(variant.url).status == .ok, "\(variant.url)")
                }
                // The owner can still save the product with the photos the deleted person uploaded.
                let saved = try await t.send(
                    .PUT, "/api/v1/stores/\(f.storeAID)/products/\(product.id)",
                    json: TestApp.productJSON(title: "Renamed", category: f.shirts, photos: product.photos, status: "active"),
                    token: f.ownerA.accessToken)
                #expect(saved.status == .ok, "\(saved.body.string)")
            }
            let kept = try await Media.query(on: t.app.db).filter(\.$id ~~ products.flatMap(\.photos).map { UUID(uuidString: $0)! }).all()
            #expect(kept.count == 10)
            #expect(kept.allSatisfy { $0.$uploader.id == nil })
        }
    }

    @Test("a shopper's deletion brings likeCount and followerCount back down")
    func shopperDeletionAdjustsCounters() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let created = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(category: f.shirts, brand: f.brand, photos: [photo], status: "active"))
            let productID = try created.content.decode(ProductBody.self).id
            let shopper = try await t.signUp(name: "Shopper")
            let stayer = try await t.signUp(name: "Stayer")
            for session in [shopper, stayer] {
                #expect(try await t.send(.PUT, "/api/v1/products/\(productID)/like", token: session.accessToken).status == .ok)
                #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: session.accessToken).status == .ok)
                #expect(try await t.send(.PUT, "/api/v1/me/follows/brands/\(f.brand.id!.idString)", token: session.accessToken).status == .ok)
            }
            try await deleteAccount(t, shopper)

            let product = try #require(try await Product.find(UUID(uuidString: productID), on: t.app.db))
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            let brand = try #require(try await Brand.find(f.brand.id, on: t.app.db))
            #expect(product.likeCount == 1)
            #expect(store.followerCount == 1)
            #expect(brand.followerCount == 1)
            #expect(try await ProductLike.query(on: t.app.db).filter(\.$userID == UUID(uuidString: shopper.user.id)!).count() == 0)
            #expect(try await Follow.query(on: t.app.db).filter(\.$userID == UUID(uuidString: shopper.user.id)!).count() == 0)
        }
    }

    @Test("the deleted person's private media files are gone and their old signed URLs answer 404")
    func privateMediaGoes() async throws {
        try await TestApp.with { t in
            let person = try await t.signUp(name: "Leaving")
            let upload = try await t.upload(try TestImages.png(width: 300, height: 200), contentType: "image/png", token: person.accessToken)
            let image = try upload.content.decode(ImageBody.self)
            let media = try #require(try await Media.find(UUID(uuidString: image.id), on: t.app.db))
            let urls = image.variants.map(\.url) + [t.app.atelier.media.signer.privateURL(key: media.originalKey, now: t.clock.now())]
            for url in urls { #expect(try await t.fetch(url).status == .ok) }
            let keys = [media.originalKey] + media.variants.map(\.key)
            for key in keys { #expect(try await t.app.atelier.media.store.exists(key: key)) }

            try await deleteAccount(t, person)

            for url in urls { #expect(try await t.fetch(url).status == .notFound, "\(url)") }
            for key in keys { #expect(try await !t.app.atelier.media.store.exists(key: key), "\(key) is still stored") }
            #expect(try await Media.find(media.id, on: t.app.db) == nil)
        }
    }

    @Test("a store whose only owner deletes their account is suspended and reported to admins")
    func soleOwnerDeletionSuspendsStore() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            try await deleteAccount(t, f.ownerA)
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            #expect(store.status == Store.Status.suspended.rawValue)
            #expect(try await Store.find(f.storeB.id, on: t.app.db)?.status == Store.Status.active.rawValue)
            let inbox = try await t.send(.GET, "/api/v1/me/notifications", token: f.admin.accessToken)
            #expect(inbox.status == .ok)
            #expect(inbox.body.string.contains("storeWithoutOwner") && inbox.body.string.contains(f.storeA.name), "\(inbox.body.string)")
        }
    }
}
