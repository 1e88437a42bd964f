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
    /// The clock, the SQLite writer and the write transaction; and the store counters a like bumps.
    private let core: CoreServices
    private let counters: CatalogCounters

    init(core: CoreServices, counters: CatalogCounters) {
        self.core = core
        self.counters = counters
    }

    /// How many changes wait for a batch now (tests).
    var waitingCount: Int { state.withLockedValue { $0.waiting.count } }

    /// Applies `change` in the next batch; returns the product's like count after that batch.
    func apply(_ change: Change, on db: any Database) async throws -> Int {
        // Inside the caller's own transaction the like, and its store's day, must commit or roll back with it.
        if db.inTransaction { return try await write([change], on: db, statsInTransaction: true)[0] }
        let promise = db.eventLoop.makePromise(of: Int.self)
        let leads = state.withLockedValue { state -> Bool in
            state.waiting.append(Waiting(change: change, promise: promise))
            guard !state.writing else { return false }
            state.writing = true
            return true
        }
        if leads { await writeNextBatch(on: db) }
        return try await promise.futureResult.get()
    }

    /// Writes the waiting changes (this caller's among them) in one batch. Whatever arrived
    /// meanwhile is written by a task of its own, so that no caller waits for batches after its own.
    private func writeNextBatch(on db: any Database) async {
        let batch = state.withLockedValue { state -> [Waiting] in
            let batch = Self.batch(from: state.waiting)
            state.waiting.removeFirst(batch.count)
            return batch
        }
        do {
            let counts = try await write(batch.map(\.change), on: db)
            for (waiting, count) in zip(batch, counts) { waiting.promise.succeed(count) }
        } catch {
            for waiting in batch {
                do {
                    waiting.promise.succeed(try await write([waiting.change], on: db)[0])
                } catch {
                    waiting.promise.fail(error)
                }
            }
        }
        let more = state.withLockedValue { state -> Bool in
            if state.waiting.isEmpty { state.writing = false }
            return state.writing
        }
        if more { Task { await self.writeNextBatch(on: db) } }
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

    /// One transaction of the batch's statements (`LikeBatchStatements`; a statement is a trip to
    /// the database, and a batch's trips are what every waiting like waits for). On a SQLite file the
    /// whole transaction is one trip to `SQLiteWriter`'s connection. The stores' daily counts move by
    /// the same changes, in memory after the commit, or in the transaction with `statsInTransaction`.
    /// Returns each change's product like count after the batch.
    private func write(_ changes: [Change], on db: any Database, statsInTransaction: Bool = false) async throws -> [Int] {
        assert(!changes.isEmpty, "a batch has at least one change")
        let now = core.clock.now()
        let day = StatsDay.string(now)
        let statements = LikeBatchStatements(changes: changes, now: now)
        let deltas: [UUID: Int], counts: [UUID: Int]
        if !statsInTransaction, let writer = core.sqliteWriter {
            (deltas, counts) = try await writer.transaction(dialectOf: db.sql) { rows in
                let deltas = try statements.deltas(inserted: statements.insert.map(rows) ?? [], deleted: statements.delete.map(rows) ?? [])
                return (deltas, try LikeBatchStatements.counts(in: LikeBatchStatements.counting(deltas).flatMap(rows)))
            }
        } else {
            // The first statement inserts or deletes like rows (there is at least one change), which takes
            // the write lock: nothing may read before them (see `writeTransaction`).
            (deltas, counts) = try await core.writeTransaction(on: db, beginsWithWrite: true) { tx in
                let sql = tx.sql
                func rows(_ query: SQLQueryString?) async throws -> [any SQLRow] {
                    guard let query else { return [] }
                    return try await sql.raw(query).all()
                }
                let deltas = try statements.deltas(inserted: try await rows(statements.insert), deleted: try await rows(statements.delete))
                var counted: [any SQLRow] = []
                for query in LikeBatchStatements.counting(deltas) { counted += try await rows(query) }
                if statsInTransaction {
                    for (storeID, likes) in statements.storeDeltas(deltas) {
                        try await StoreStatsService.bump(storeID: storeID, day: day, likes: likes, on: sql)
                    }
                }
                return (deltas, try LikeBatchStatements.counts(in: counted))
            }
        }
        let storeDeltas = statements.storeDeltas(deltas)
        if !statsInTransaction, !storeDeltas.isEmpty { await counters.addLikes(storeDeltas, day: day) }
        return changes.map { counts[$0.product.id] ?? 0 }
    }
}
