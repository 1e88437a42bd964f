import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: stores, staff, brands and accounts through the API")
struct StoreAdminAPITests {
    @Test("admins create stores with an owner; others may not; bad input is a 422 naming the field")
    func createStores() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let body = #"{"name":"Kvarnen","street":"Kungsgatan 1","city":"Gothenburg","location":{"lat":57.7,"lng":11.96},"ownerEmail":"\#(f.ownerB.user.email!)"}"#
            #expect(try await t.send(.POST, "/api/v1/stores", json: body, token: f.ownerA.accessToken).status == .forbidden)
            #expect(try await t.send(.POST, "/api/v1/stores", json: body).status == .unauthorized)
            let created = try await t.send(.POST, "/api/v1/stores", json: body, token: f.admin.accessToken)
            #expect(created.status == .created, "\(created.body.string)")
            struct StoreBody: Decodable { var id: String; var slug: String; var webUrl: String }
            let store = try created.content.decode(StoreBody.self)
            #expect(store.slug == "kvarnen")
            #expect(try await t.send(.POST, "/api/v1/stores", json: body, token: f.admin.accessToken).status == .conflict)
            struct Mine: Decodable { struct Item: Decodable { struct Ref: Decodable { var id: String }; var store: Ref; var role: String }; var items: [Item] }
            let mine = try await t.send(.GET, "/api/v1/me/stores", token: f.ownerB.accessToken).content.decode(Mine.self)
            #expect(mine.items.contains { $0.store.id == store.id && $0.role == "owner" })
            let bad = try await t.send(
                .POST, "/api/v1/stores", json: #"{"name":"X","street":"","city":"G","location":{"lat":95,"lng":11}}"#, token: f.admin.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(Set(try bad.problem().fields).isSuperset(of: ["street", "location"]))
        }
    }

    @Test("owners invite and remove staff; staff may not; the last owner stays; invitations are taken up on sign-in")
    func staff() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let base = "/api/v1/stores/\(f.storeAID)/staff"
            let clerk = try await t.signUp(name: "Clerk")
            let added = try await t.send(.POST, base, json: #"{"email":"\#(clerk.user.email!)"}"#, token: f.ownerA.accessToken)
            #expect(added.status == .created, "\(added.body.string)")
            try await t.deliverMail()
            #expect(t.mailer.mails(to: clerk.user.email!).filter { $0.subject.contains("You were added") }.count == 1)
            #expect(try await t.send(.POST, base, json: #"{"email":"\#(clerk.user.email!)"}"#, token: f.ownerA.accessToken).status == .conflict)
            // Staff can work on products but not manage staff.
            #expect(try await t.send(.GET, base, token: clerk.accessToken).status == .ok)
            #expect(try await t.send(.POST, base, json: #"{"email":"someone@example.com"}"#, token: clerk.accessToken).status == .forbidden)
            #expect(try await t.send(.GET, base, token: f.ownerB.accessToken).status == .notFound)
            #expect(try await t.send(.POST, base, json: #"{"email":"not an address"}"#, token: f.ownerA.accessToken).status == .unprocessableEntity)

            // An address without an account gets an invitation, taken up once it is verified.
            let newcomer = uniqueEmail("newcomer")
            let invited = try await t.send(.POST, base, json: #"{"email":"\#(newcomer)","role":"staff"}"#, token: f.ownerA.accessToken)
            #expect(try invited.content.decode(InvitedBody.self).pending == true)
            let account = try await t.signUp(email: newcomer)
            let user = try #require(try await User.find(UUID(uuidString: account.user.id), on: t.app.db))
            #expect(try await t.send(.GET, "/api/v1/me/stores", token: account.accessToken).body.string.contains(f.storeAID) == false)
            user.emailVerifiedAt = t.clock.now()
            try await user.save(on: t.app.db)
            #expect(try await t.send(.GET, "/api/v1/me/stores", token: account.accessToken).body.string.contains(f.storeAID))

            // The only owner cannot be removed.
            struct Staff: Decodable { struct Member: Decodable { var id: String; var role: String; var userId: String? }; var items: [Member] }
            let members = try await t.send(.GET, base, token: f.ownerA.accessToken).content.decode(Staff.self).items
            let owner = try #require(members.first { $0.role == "owner" })
            #expect(try await t.send(.DELETE, "\(base)/\(owner.id)", token: f.ownerA.accessToken).status == .conflict)
            let clerkRow = try #require(members.first { $0.userId == clerk.user.id })
            #expect(try await t.send(.DELETE, "\(base)/\(clerkRow.id)", token: f.ownerA.accessToken).status == .noContent)
            #expect(try await t.send(.GET, base, token: clerk.accessToken).status == .notFound)
        }
    }

    @Test("brands: admins create and approve; stores propose and may use their proposal; others may not")
    func brands() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            #expect(try await t.send(.POST, "/api/v1/brands", json: #"{"name":"Nordvik"}"#, token: f.ownerA.accessToken).status == .forbidden)
            #expect(try await t.send(.POST, "/api/v1/brands", json: #"{"name":"Nordvik"}"#, token: f.admin.accessToken).status == .created)
            #expect(try await t.send(.POST, "/api/v1/brands", json: #"{"name":"NORDVIK"}"#, token: f.admin.accessToken).status == .conflict)
            #expect(try await t.send(.POST, "/api/v1/brands", json: #"{"name":"   "}"#, token: f.admin.accessToken).status == .unprocessableEntity)
            let proposed = try await t.send(.POST, "/api/v1/stores/\(f.storeAID)/brand-proposals", json: #"{"name":"Ekholm"}"#, token: f.ownerA.accessToken)
            #expect(proposed.status == .created)
            struct BrandBody: Decodable { var id: String; var status: String }
            let brand = try proposed.content.decode(BrandBody.self)
            #expect(brand.status == "proposed")
            #expect(!(try await t.send(.GET, "/api/v1/brands?q=ekh").body.string.contains(brand.id)))
            #expect(try await t.send(.GET, "/api/v1/brands?status=proposed").status == .unauthorized)
            #expect(try await t.send(.GET, "/api/v1/brands?status=proposed", token: f.admin.accessToken).body.string.contains(brand.id))

            // Store A may use its proposal; store B may not until it is approved.
            let brandModel = try #require(try await Brand.find(UUID(uuidString: brand.id), on: t.app.db))
            let photoA = try await t.uploadPhoto(token: f.ownerA.accessToken)
            #expect(try await t.createProduct(in: f.storeAID, token: f.ownerA.accessToken, json: TestApp.productJSON(category: f.shirts, brand: brandModel, photos: [photoA])).status == .created)
            let photoB = try await t.uploadPhoto(token: f.ownerB.accessToken)
            let refused = try await t.createProduct(in: f.storeBID, token: f.ownerB.accessToken, json: TestApp.productJSON(category: f.shirts, brand: brandModel, photos: [photoB]))
            #expect(try refused.problem().fields == ["brandId"])
            #expect(try await t.send(.POST, "/api/v1/brands/\(brand.id)/approve", token: f.admin.accessToken).status == .ok)
            #expect(try await t.createProduct(in: f.storeBID, token: f.ownerB.accessToken, json: TestApp.productJSON(category: f.shirts, brand: brandModel, photos: [photoB])).status == .created)
            #expect(try await t.send(.GET, "/api/v1/brands?q=ekh").body.string.contains(brand.id))
        }
    }

    @Test("admins suspend accounts (signing them out) and grant roles; not themselves")
    func accounts() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            #expect(try await t.send(.GET, "/api/v1/admin/users?q=owner", token: f.ownerA.accessToken).status == .forbidden)
            let found = try await t.send(.GET, "/api/v1/admin/users?q=\(f.ownerA.user.email!)", token: f.admin.accessToken)
            #expect(found.body.string.contains(f.ownerA.user.id))
            let path = "/api/v1/admin/users/\(f.ownerA.user.id)"
            #expect(try await t.send(.PATCH, path, json: #"{"isEditor":true}"#, token: f.admin.accessToken).body.string.contains(#""editor""#))
            #expect(try await t.send(.PATCH, path, json: #"{"suspended":true}"#, token: f.admin.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/me", token: f.ownerA.accessToken).status.code >= 400)
            #expect(try await t.send(.PATCH, "/api/v1/admin/users/\(f.admin.user.id)", json: #"{"suspended":true}"#, token: f.admin.accessToken).status == .conflict)
            #expect(try await t.send(.PATCH, "/api/v1/admin/users/\(UUID())", json: #"{"isAdmin":true}"#, token: f.admin.accessToken).status == .notFound)
        }
    }
}

private struct InvitedBody: Decodable {
    var pending: Bool
}
