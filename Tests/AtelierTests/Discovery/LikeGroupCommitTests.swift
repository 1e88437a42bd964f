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
            let (product, ref) = try await Self.activeProduct(t)
            let gone = ProductCatalog.ProductRef(id: UUID(), storeID: product.$store.id)  // no such product: the like row cannot exist
            let shoppers = try await t.signUpMany(40)
            let commit = t.app.atelier.likeWrites
            let results = await withTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
                for (index, shopper) in shoppers.enumerated() {
                    let userID = UUID(uuidString: shopper.user.id)!
                    let target = index == 17 ? gone : ref
                    group.addTask {
                        do {
                            return (index, .success(try await commit.apply(.init(product: target, userID: userID, like: true), on: t.app.db)))
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
            // The store's day counts the 39 likes once each, written with the views, not in the batches.
            let day = StatsDay.string(t.clock.now())
            func storeDayLikes() async throws -> Int? {
                try await t.app.db.sql.raw("""
                    SELECT likes FROM store_daily_stats WHERE store_id = \(bind: product.$store.id) AND day = \(bind: day)
                    """).first()?.decode(column: "likes", as: Int.self)
            }
            #expect(try await storeDayLikes() == nil)
            try await t.app.atelier.catalogCounters.flush(on: t.app.db)
            #expect(try await storeDayLikes() == 39)
        }
    }

    @Test("a like and an unlike of one pair in one burst leave the row and the counter in step")
    func likeThenUnlike() async throws {
        try await TestApp.with { t in
            let (product, ref) = try await Self.activeProduct(t)
            let shopper = try await t.signUpMany(1)[0]
            let userID = UUID(uuidString: shopper.user.id)!
            let commit = t.app.atelier.likeWrites
            // Sequential calls: each answer is the state after it, in order.
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: true), on: t.app.db) == 1)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: true), on: t.app.db) == 1)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: false), on: t.app.db) == 0)
            #expect(try await commit.apply(.init(product: ref, userID: userID, like: false), on: t.app.db) == 0)
            let stored = try #require(try await Product.find(product.id, on: t.app.db))
            #expect(stored.likeCount == 0)
        }
    }

    @Test("a burst of likes and unlikes, one pair several times among them, across two stores: rows, counters and store days agree, and each pair ends in its last change")
    func burstOfRepeatedPairs() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            var refs: [ProductCatalog.ProductRef] = []
            for (store, owner) in [(f.storeAID, f.ownerA), (f.storeAID, f.ownerA), (f.storeBID, f.ownerB)] {
                let body = try await t.activeProduct(in: store, owner: owner, category: f.shirts)
                let product = try #require(try await Product.find(UUID(uuidString: body.id), on: t.app.db))
                refs.append(.init(id: product.id!, storeID: product.$store.id))
            }
            let shoppers = try await t.signUpMany(12).map { UUID(uuidString: $0.user.id)! }
            let commit = t.app.atelier.likeWrites
            let services = t.app.atelier
            let db = t.app.db
            // Shopper i ends liking product p when (i + p) is even. Per pair, one task runs its changes
            // in order (like, like again, unlike, like for those; like, unlike for the others) while two
            // more send the pair's last change at once, so one pair waits several times together.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (i, shopper) in shoppers.enumerated() {
                    for (p, ref) in refs.enumerated() {
                        let ends = (i + p) % 2 == 0
                        for steps in [ends ? [true, true, false, true] : [true, false], [ends], [ends]] {
                            group.addTask {
                                for like in steps {
                                    let count = try await commit.apply(.init(product: ref, userID: shopper, like: like), on: db)
                                    #expect((0...12).contains(count))
                                }
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            var expectedByStore: [UUID: Int] = [:]
            for (p, ref) in refs.enumerated() {
                let likers = Set(shoppers.enumerated().filter { ($0.offset + p) % 2 == 0 }.map(\.element))
                let rows = try await ProductLike.query(on: db).filter(\.$product.$id == ref.id).all()
                #expect(Set(rows.map(\.userID)) == likers && rows.count == likers.count)
                let stored = try #require(try await Product.find(ref.id, on: db))
                #expect(stored.likeCount == likers.count)
                expectedByStore[ref.storeID, default: 0] += likers.count
            }
            // The stores' days count the net likes: every like that stayed, once.
            try await services.catalogCounters.flush(on: db)
            let day = StatsDay.string(t.clock.now())
            for (storeID, expected) in expectedByStore {
                let likes = try await db.sql.raw("""
                    SELECT likes FROM store_daily_stats WHERE store_id = \(bind: storeID) AND day = \(bind: day)
                    """).first()?.decode(column: "likes", as: Int.self)
                #expect(likes == expected)
            }
        }
    }

    @Test("an unlike and a like of one pair waiting together apply in that order: the like stays")
    func unlikeThenLikeWaitingTogether() async throws {
        try await TestApp.with { t in
            let (_, ref) = try await Self.activeProduct(t)
            let shopper = UUID(uuidString: try await t.signUpMany(1)[0].user.id)!
            let commit = t.app.atelier.likeWrites
            let services = t.app.atelier
            let db = t.app.db
            // A write holds the product's row (PostgreSQL) and the write turn (SQLite) until released,
            // so the first like's batch waits and the next two changes queue up behind it.
            let (gate, open) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await services.writeTransaction(on: db) { tx in
                    try await tx.sql.raw("UPDATE \(ident: Product.schema) SET like_count = like_count WHERE id = \(bind: ref.id)").run()
                    for await _ in gate { break }
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            func change(_ like: Bool) -> Task<Int, any Error> {
                Task { try await commit.apply(.init(product: ref, userID: shopper, like: like), on: db) }
            }
            let first = change(true)
            try await Task.sleep(for: .milliseconds(200))  // the first like leads its batch and waits
            let unlike = change(false)
            while commit.waitingCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
            let like = change(true)
            while commit.waitingCount < 2 { try await Task.sleep(for: .milliseconds(5)) }
            open.yield()
            open.finish()
            try await holder.value
            #expect(try await first.value == 1)
            #expect(try await unlike.value == 0)
            #expect(try await like.value == 1)
            let rows = try await ProductLike.query(on: db).filter(\.$product.$id == ref.id).count()
            let stored = try #require(try await Product.find(ref.id, on: db))
            #expect(rows == 1 && stored.likeCount == 1)
        }
    }

    @Test("a like inside the caller's transaction counts its store's day in it: both stay when it commits, both go when it rolls back")
    func likeInTheCallersTransaction() async throws {
        try await TestApp.with { t in
            let (product, ref) = try await Self.activeProduct(t)
            let shoppers = try await t.signUpMany(2).map { UUID(uuidString: $0.user.id)! }
            let commit = t.app.atelier.likeWrites
            let services = t.app.atelier
            let sql = t.app.db.sql
            let day = StatsDay.string(t.clock.now())
            func storeDayLikes() async throws -> Int? {
                try await sql.raw("""
                    SELECT likes FROM store_daily_stats WHERE store_id = \(bind: product.$store.id) AND day = \(bind: day)
                    """).first()?.decode(column: "likes", as: Int.self)
            }
            struct RolledBack: Error {}
            await #expect(throws: RolledBack.self) {
                try await t.app.db.transaction { tx in
                    let count = try await commit.apply(.init(product: ref, userID: shoppers[0], like: true), on: tx)
                    #expect(count == 1)
                    throw RolledBack()
                }
            }
            try await t.app.db.transaction { tx in
                let count = try await commit.apply(.init(product: ref, userID: shoppers[1], like: true), on: tx)
                #expect(count == 1)
            }
            // Counted in the transaction that committed, not again at the next flush.
            #expect(try await storeDayLikes() == 1)
            try await services.catalogCounters.flush(on: t.app.db)
            #expect(try await storeDayLikes() == 1)
            let stored = try #require(try await Product.find(product.id, on: t.app.db))
            let rows = try await ProductLike.query(on: t.app.db).filter(\.$product.$id == ref.id).all()
            #expect(rows.map(\.userID) == [shoppers[1]] && stored.likeCount == 1)
        }
    }

    @Test("a store's stats show its likes as soon as they are answered, unlikes taken off")
    func likesInTheStoreStats() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
            let shoppers = try await t.signUpMany(3)
            for (shopper, method) in [(shoppers[0], HTTPMethod.PUT), (shoppers[1], .PUT), (shoppers[2], .PUT), (shoppers[0], .DELETE)] {
                let response = try await t.send(method, "/api/v1/products/\(product.id)/like", token: shopper.accessToken)
                #expect(response.status == .ok, "\(response.body.string)")
            }
            // No flush here: reading the stats writes what was counted first.
            let stats = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/stats?days=2", token: f.ownerA.accessToken)
            #expect(stats.status == .ok, "\(stats.body.string)")
            struct Stats: Decodable { struct Day: Decodable { var day: String; var likes: Int }; var days: [Day] }
            let days = try stats.content.decode(Stats.self).days
            #expect(days.map(\.likes) == [0, 2])
            #expect(days.last?.day == StatsDay.string(t.clock.now()))
        }
    }

    @Test("on a SQLite file the batches are written on the writer's connection, a batch a trip")
    func batchesOnTheWriter() async throws {
        try await TestApp.with { t in
            guard let writer = t.app.atelier.sqliteWriter else { return }
            let (product, ref) = try await Self.activeProduct(t)
            let shoppers = try await t.signUpMany(6).map { UUID(uuidString: $0.user.id)! }
            let before = writer.trips
            try await withThrowingTaskGroup(of: Int.self) { group in
                for shopper in shoppers {
                    group.addTask { try await LikeService(db: t.app.db, core: t.app.core, likeWrites: t.app.atelier.likeWrites).like(ref, by: shopper) }
                }
                try await group.waitForAll()
            }
            #expect((1...6).contains(writer.trips - before))
            #expect(try #require(try await Product.find(product.id, on: t.app.db)).likeCount == 6)
        }
    }

    /// An active product of a new store, and its reference for `LikeGroupCommit`.
    private static func activeProduct(_ t: TestApp) async throws -> (Product, ProductCatalog.ProductRef) {
        let f = try await t.catalogFixture()
        let body = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts)
        let product = try #require(try await Product.find(UUID(uuidString: body.id), on: t.app.db))
        return (product, ProductCatalog.ProductRef(id: product.id!, storeID: product.$store.id))
    }
}
