import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Discovery: likes, lookbook and follows")
struct LikeAndFollowTests {
    @Test("100 concurrent likes from 100 users leave a like count of 100")
    func concurrentLikes() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let shoppers = try await t.signUpMany(100)
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for shopper in shoppers {
                    group.addTask { try await t.send(.PUT, "/api/v1/products/\(product.id)/like", token: shopper.accessToken).status.code }
                }
                var codes: [UInt] = []
                for try await code in group { codes.append(code) }
                return codes
            }
            #expect(codes.allSatisfy { $0 == 200 }, "\(Set(codes))")
            let stored = try #require(try await Product.find(UUID(uuidString: product.id), on: t.app.db))
            #expect(stored.likeCount == 100)
            #expect(try await ProductLike.query(on: t.app.db).filter(\.$product.$id == stored.id!).count() == 100)
            // Liking again changes nothing.
            let again = try await t.send(.PUT, "/api/v1/products/\(product.id)/like", token: shoppers[0].accessToken)
            #expect(try again.content.decode(LikeStateBody.self).likeCount == 100)
        }
    }

    @Test("100 concurrent like/unlike toggles by one user leave the count equal to the like rows")
    func concurrentToggles() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let shopper = try await t.signUp(name: "Toggler")
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await t.send(index % 2 == 0 ? .PUT : .DELETE, "/api/v1/products/\(product.id)/like", token: shopper.accessToken).status.code
                    }
                }
                var codes: [UInt] = []
                for try await code in group { codes.append(code) }
                return codes
            }
            #expect(codes.allSatisfy { $0 == 200 }, "\(Set(codes))")
            let stored = try #require(try await Product.find(UUID(uuidString: product.id), on: t.app.db))
            let rows = try await ProductLike.query(on: t.app.db).filter(\.$product.$id == stored.id!).count()
            #expect(rows <= 1)
            #expect(stored.likeCount == rows)
        }
    }

    @Test("the lookbook lists liked products newest like first; hidden products cannot be liked")
    func lookbook() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let first = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "First")
            let second = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "Second")
            let shopper = try await t.signUp(name: "Shopper")
            for product in [first, second] {
                #expect(try await t.send(.PUT, "/api/v1/products/\(product.id)/like", token: shopper.accessToken).status == .ok)
                t.clock.advance(by: 1)
            }
            var lookbook = try await t.send(.GET, "/api/v1/me/lookbook", token: shopper.accessToken).content.decode(ProductCardPageBody.self)
            #expect(lookbook.items.map(\.title) == ["Second", "First"])
            let unliked = try await t.send(.DELETE, "/api/v1/products/\(second.id)/like", token: shopper.accessToken)
            #expect(try unliked.content.decode(LikeStateBody.self) == .init(liked: false, likeCount: 0))
            // A deactivated product leaves the lookbook (and comes back when it is active again).
            #expect(try await t.send(.POST, "/api/v1/stores/\(f.storeAID)/products/\(first.id)/deactivate", token: f.ownerA.accessToken).status == .ok)
            lookbook = try await t.send(.GET, "/api/v1/me/lookbook", token: shopper.accessToken).content.decode(ProductCardPageBody.self)
            #expect(lookbook.items.isEmpty)
            // Inactive: 404 for a shopper; unknown id: 404; signed out: 401.
            #expect(try await t.send(.PUT, "/api/v1/products/\(first.id)/like", token: shopper.accessToken).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/products/\(UUID())/like", token: shopper.accessToken).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/products/\(second.id)/like").status == .unauthorized)
            #expect(try await t.send(.GET, "/api/v1/me/lookbook").status == .unauthorized)
        }
    }

    @Test("follower counts stay exact under 50 concurrent follows; following twice or unfollowing a stranger changes nothing")
    func follows() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let shoppers = try await t.signUpMany(50)
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for shopper in shoppers {
                    group.addTask { try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)", token: shopper.accessToken).status.code }
                    group.addTask { try await t.send(.PUT, "/api/v1/me/follows/brands/\(f.brand.id!)", token: shopper.accessToken).status.code }
                }
                var codes: [UInt] = []
                for try await code in group { codes.append(code) }
                return codes
            }
            #expect(codes.allSatisfy { $0 == 200 }, "\(Set(codes))")
            #expect(try await Store.find(f.storeA.id, on: t.app.db)?.followerCount == 50)
            #expect(try await Brand.find(f.brand.id, on: t.app.db)?.followerCount == 50)

            let one = shoppers[0].accessToken
            let twice = try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeA.slug)", token: one)
            #expect(try twice.content.decode(FollowStateBody.self) == .init(following: true, followerCount: 50))
            let none = try await t.send(.DELETE, "/api/v1/me/follows/stores/\(f.storeBID)", token: one)
            #expect(try none.content.decode(FollowStateBody.self) == .init(following: false, followerCount: 0))
            struct Follows: Decodable {
                struct Named: Decodable { var id: String; var followerCount: Int? }
                var stores: [Named]
                var brands: [Named]
            }
            let list = try await t.send(.GET, "/api/v1/me/follows", token: one).content.decode(Follows.self)
            #expect(list.stores.map(\.id) == [f.storeAID])
            #expect(list.brands.map(\.id) == [f.brand.id!.idString])
            let gone = try await t.send(.DELETE, "/api/v1/me/follows/brands/\(f.brand.id!)", token: one)
            #expect(try gone.content.decode(FollowStateBody.self) == .init(following: false, followerCount: 49))

            // A proposed brand, an unknown store and a signed-out caller.
            let admin = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            let proposed = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
                .create(name: "Proposal \(UUID().uuidString.prefix(6))", logoID: nil, status: .proposed, proposedBy: nil, by: admin)
            #expect(try await t.send(.PUT, "/api/v1/me/follows/brands/\(proposed.id!)", token: one).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/no-such-store", token: one).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(f.storeAID)").status == .unauthorized)
            // The store's stats count today's follows.
            let stats = try await StoreStatsService(db: t.app.db, core: t.app.core).series(storeID: f.storeA.id!, days: 1)
            #expect(stats.last?.follows == 50)
        }
    }
}
