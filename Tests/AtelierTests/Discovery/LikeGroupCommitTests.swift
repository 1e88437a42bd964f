import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Likes written in batches (group commit, issue 19)")
struct LikeGroupCommitTests {
    @Test("likes arriving together are written together, each answered with the count after its batch; one that fails fails alone")
    func batchWithAFailure() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let body = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let product = try #require(try await Product.find(UUID(uuidString: body.id), on: t.app.db))
            let ref = ProductCatalog.ProductRef(id: product.id!, storeID: product.$store.id)
            let gone = ProductCatalog.ProductRef(id: UUID(), storeID: product.$store.id)  // no such product: the like row cannot exist
            let shoppers = try await t.signUpMany(40)
            let commit = t.app.atelier.likeWrites
            let results = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
                for (index, shopper) in shoppers.enumerated() {
                    let userID = UUID(uuidString: shopper.user.id)!
                    let target = index == 17 ? gone : ref
                    group.addTask {
                        do {
                            return (index, .success(try await commit.apply(.init(product: target, userID: userID, like: true), on: t.app.db, services: t.app.atelier)))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var all: [(Int, Result<Int, any Error>)] = []
                for await result in group { all.append(result) }
                return all
            }
            let failed = results.filter { if case .failure = $0.1 { true } else { false } }.map(\.0)
            #expect(failed == [17])
            // Every acknowledged like is stored, and the counter equals the rows.
            let stored = try #require(try await Product.find(product.id, on: t.app.db))
            let rows = try await ProductLike.query(on: t.app.db).filter(\.$product.$id == product.id!).count()
            #expect(rows == 39 && stored.likeCount == 39)
            // Each caller got a count that was true after its own batch: between 1 and the final 39.
            let counts = results.compactMap { if case .success(let n) = $0.1 { n } else { nil } }
            #expect(counts.allSatisfy { (1...39).contains($0) } && counts.contains(39))
            // The store's day counts the 39 likes once each.
            let day = StatsDay.string(t.clock.now())
            let likes = try await (t.app.db as! any SQLDatabase).raw("""
                SELECT likes FROM store_daily_stats WHERE store_id = \(bind: product.$store.id) AND day = \(bind: day)
                """).first()?.decode(column: "likes", as: Int.self)
            #expect(likes == 39)
        }
    }

    @Test("a like and an unlike of one pair in one burst leave the row and the counter in step")
    func likeThenUnlike() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let body = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let product = try #require(try await Product.find(UUID(uuidString: body.id), on: t.app.db))
            let ref = ProductCatalog.ProductRef(id: product.id!, storeID: product.$store.id)
            let shopper = try await t.signUpMany(1)[0]
            let userID = UUID(uuidString: shopper.user.id)!
            let commit = t.app.atelier.likeWrites
            // Sequential calls: each answer is the state after it, in order.
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: true), on: t.app.db, services: t.app.atelier) == 1)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: true), on: t.app.db, services: t.app.atelier) == 1)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: false), on: t.app.db, services: t.app.atelier) == 0)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: false), on: t.app.db, services: t.app.atelier) == 0)
            let stored = try #require(try await Product.find(product.id, on: t.app.db))
            #expect(stored.likeCount == 0)
        }
    }
}
