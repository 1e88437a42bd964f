import Fluent
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLKit

/// Group commit for likes (issue 19): a like or unlike that arrives while another batch is being
/// written waits, and the next writer takes every waiting one into one write transaction. A like
/// alone costs several round trips to SQLite besides its own statements (taking the write turn,
/// `BEGIN`, `COMMIT`); under load those are paid once per batch. Each caller is
/// answered only after its batch has committed, so an acknowledged like is as durable as before.
/// The stores' daily like counts are added up per batch and, once it has committed, counted in
/// memory and written with the product views (`CatalogCounters`): no stats write waits in a batch.
///
/// If a batch fails (a product deleted meanwhile), each of its likes is tried again in a
/// transaction of its own, so one bad like fails only its own request.
final class LikeGroupCommit: Sendable {
    struct Change: Sendable {
        var product: ProductCatalog.ProductRef
        var userID: UUID
        var like: Bool  // false: unlike
    }

    private struct Waiting {
        var change: Change
        var promise: EventLoopPromise<Int>
    }

    /// Batches are at most this long, so one transaction never holds the write lock for long.
    static let maxBatch = 256

    private let state = NIOLockedValueBox<(waiting: [Waiting], writing: Bool)>(([], false))

    /// How many changes wait for a batch now (tests).
    var waitingCount: Int { state.withLockedValue { $0.waiting.count } }

    /// Applies `change` in the next batch; returns the product's like count after that batch.
    func apply(_ change: Change, on db: any Database, services: AtelierServices) async throws -> Int {
        // Inside the caller's own transaction the like, and its store's day, must commit or roll back with it.
        if db.inTransaction { return try await write([change], on: db, services: services, statsInTransaction: true)[0] }
        let promise = db.eventLoop.makePromise(of: Int.self)
        let leads = state.withLockedValue { state -> Bool in
            state.waiting.append(Waiting(change: change, promise: promise))
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if leads { await writeNextBatch(on: db, services: services) }
        return try await promise.futureResult.get()
    }

    /// Writes the waiting changes (this caller's among them) in one batch. Whatever arrived
    /// meanwhile is written by a task of its own, so that no caller waits for batches after its own.
    private func writeNextBatch(on db: any Database, services: AtelierServices) async {
        let batch = state.withLockedValue { state -> [Waiting] in
            let batch = Self.batch(from: state.waiting)
            state.waiting.removeFirst(batch.count)
            return batch
        }
        do {
            let counts = try await write(batch.map(\.change), on: db, services: services)
            for (waiting, count) in zip(batch, counts) { waiting.promise.succeed(count) }
        } catch {
            for waiting in batch {
                do {
                    waiting.promise.succeed(try await write([waiting.change], on: db, services: services)[0])
                } catch {
                    waiting.promise.fail(error)
                }
            }
        }
        let more = state.withLockedValue { state -> Bool in
            if state.waiting.isEmpty { state.writing = false }
            return state.writing
        }
        if more { Task { await self.writeNextBatch(on: db, services: services) } }
    }

    /// The longest run of waiting changes from the front, up to `maxBatch`, in which no shopper
    /// likes or unlikes one product twice: the batch's statements then need no order among its
    /// changes. A second change of a pair waits for the next batch, so changes apply in arrival order.
    private static func batch(from waiting: [Waiting]) -> [Waiting] {
        var pairs = Set<Pair>()
        var count = 0
        for entry in waiting {
            guard count < maxBatch, pairs.insert(Pair(user: entry.change.userID, product: entry.change.product.id)).inserted else { break }
            count += 1
        }
        return Array(waiting.prefix(count))
    }

    private struct Pair: Hashable {
        var user: UUID
        var product: UUID
    }

    /// One transaction of at most four statements whatever the batch's size (a statement is a trip
    /// to the database, and a batch's trips are what every waiting like waits for): the like rows that
    /// appear, those that go away, and each product's counter moved by what really changed (so
    /// `like_count` stays the number of like rows). The stores' daily counts move by the same changes,
    /// in memory after the commit, or in the transaction with `statsInTransaction`. Returns each
    /// change's product like count after the batch. The changes' pairs are distinct (`batch`).
    private func write(_ changes: [Change], on db: any Database, services: AtelierServices, statsInTransaction: Bool = false) async throws -> [Int] {
        assert(!changes.isEmpty, "a batch has at least one change")
        let now = services.clock.now()
        let day = StatsDay.string(now)
        // The first statement inserts or deletes like rows (there is at least one change), which takes
        // the write lock: nothing may read before them (see `writeTransaction`).
        let (counts, storeDelta) = try await services.writeTransaction(on: db, beginsWithWrite: true) { tx in
            let sql = tx as! any SQLDatabase
            var productDelta = Dictionary(changes.map { ($0.product.id, 0) }, uniquingKeysWith: { first, _ in first })
            let storeOf = Dictionary(changes.map { ($0.product.id, $0.product.storeID) }, uniquingKeysWith: { first, _ in first })
            for productID in try await Self.insertLikes(changes.filter(\.like), at: now, on: sql) { productDelta[productID, default: 0] += 1 }
            for productID in try await Self.deleteLikes(changes.filter { !$0.like }, on: sql) { productDelta[productID, default: 0] -= 1 }
            let counts = try await Self.likeCounts(moving: productDelta, on: sql)
            var storeDelta: [UUID: Int] = [:]
            for (productID, delta) in productDelta where delta != 0 { storeDelta[storeOf[productID]!, default: 0] += delta }
            if statsInTransaction {
                for (storeID, likes) in storeDelta { try await StoreStatsService.bump(storeID: storeID, day: day, likes: likes, on: sql) }
            }
            return (changes.map { counts[$0.product.id] ?? 0 }, statsInTransaction ? [:] : storeDelta)
        }
        if !storeDelta.isEmpty { await services.catalogCounters.addLikes(storeDelta, day: day) }
        return counts
    }

    /// The product of each like row that appeared (one already there is left as it is).
    private static func insertLikes(_ likes: [Change], at now: Date, on sql: any SQLDatabase) async throws -> [UUID] {
        guard !likes.isEmpty else { return [] }
        let rows: [SQLQueryString] = likes.map { "(\(bind: UUID.v7(at: now)), \(bind: $0.userID), \(bind: $0.product.id), \(bind: now))" }
        return try await sql.raw("""
            INSERT INTO \(ident: ProductLike.schema) (id, user_id, product_id, created_at) VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (user_id, product_id) DO NOTHING RETURNING product_id
            """).all().map { try $0.decode(column: "product_id", as: UUID.self) }
    }

    /// The product of each like row that went away (an unlike of no like changes nothing).
    private static func deleteLikes(_ unlikes: [Change], on sql: any SQLDatabase) async throws -> [UUID] {
        guard !unlikes.isEmpty else { return [] }
        let pairs: [SQLQueryString] = unlikes.map { "(user_id = \(bind: $0.userID) AND product_id = \(bind: $0.product.id))" }
        return try await sql.raw("""
            DELETE FROM \(ident: ProductLike.schema) WHERE \(pairs.joined(separator: " OR ")) RETURNING product_id
            """).all().map { try $0.decode(column: "product_id", as: UUID.self) }
    }

    /// Moves each product's counter by its delta and returns every product's count afterwards; a
    /// product whose rows did not change is only read. One statement takes the rows in the order of
    /// its scan, so concurrent batches on PostgreSQL lock products in one order.
    private static func likeCounts(moving deltas: [UUID: Int], on sql: any SQLDatabase) async throws -> [UUID: Int] {
        let moved = deltas.filter { $0.value != 0 }
        let unmoved = deltas.compactMap { $0.value == 0 ? $0.key : nil }
        var rows: [any SQLRow] = []
        if !moved.isEmpty {
            let cases: [SQLQueryString] = moved.map { "WHEN \(bind: $0.key) THEN \(bind: $0.value)" }
            rows += try await sql.raw("""
                UPDATE \(ident: Product.schema) SET like_count = like_count + CASE id \(cases.joined(separator: " ")) END
                WHERE id IN (\(binds: Array(moved.keys))) RETURNING id, like_count
                """).all()
        }
        if !unmoved.isEmpty {
            rows += try await sql.raw("SELECT id, like_count FROM \(ident: Product.schema) WHERE id IN (\(binds: unmoved))").all()
        }
        var counts: [UUID: Int] = [:]
        for row in rows { counts[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "like_count", as: Int.self) }
        return counts
    }
}
