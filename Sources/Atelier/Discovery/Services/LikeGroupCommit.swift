import Fluent
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLKit

/// Group commit for likes (issue 19): a like or unlike that arrives while another batch is being
/// written waits, and the next writer takes every waiting one into one write transaction. A like
/// alone costs several round trips to SQLite besides its own statements (taking the write turn,
/// `BEGIN`, the write lock, `COMMIT`); under load those are paid once per batch. Each caller is
/// answered only after its batch has committed, so an acknowledged like is as durable as before.
/// The store's daily like count is added up per batch (one upsert per store and day).
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

    /// Applies `change` in the next batch; returns the product's like count after that batch.
    func apply(_ change: Change, on db: any Database, services: AtelierServices) async throws -> Int {
        // Inside the caller's own transaction the like must commit or roll back with it.
        if db.inTransaction { return try await write([change], on: db, services: services)[0] }
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
            let batch = Array(state.waiting.prefix(Self.maxBatch))
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

    /// One transaction: each like row appears or goes away in order, then each product's counter
    /// moves by what really changed (so `like_count` stays the number of like rows), then the
    /// stores' daily counts. Returns each change's product like count after the batch.
    private func write(_ changes: [Change], on db: any Database, services: AtelierServices) async throws -> [Int] {
        let now = services.clock.now()
        return try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            var productDelta: [UUID: Int] = [:]
            var storeDelta: [UUID: Int] = [:]
            for change in changes {
                let product = change.product
                let changed: Bool
                if change.like {
                    changed = try await !sql.raw("""
                        INSERT INTO \(ident: ProductLike.schema) (id, user_id, product_id, created_at)
                        VALUES (\(bind: UUID.v7(at: now)), \(bind: change.userID), \(bind: product.id), \(bind: now))
                        ON CONFLICT (user_id, product_id) DO NOTHING RETURNING id
                        """).all().isEmpty
                } else {
                    changed = try await !sql.raw("""
                        DELETE FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: change.userID) AND product_id = \(bind: product.id)
                        RETURNING id
                        """).all().isEmpty
                }
                productDelta[product.id, default: 0] += 0  // every product gets its count read, changed or not
                if changed {
                    productDelta[product.id, default: 0] += change.like ? 1 : -1
                    storeDelta[product.storeID, default: 0] += change.like ? 1 : -1
                }
            }
            var counts: [UUID: Int] = [:]
            // Products in id order: PostgreSQL row locks are then taken in one order by every batch.
            for (productID, delta) in productDelta.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                let row = delta == 0
                    ? try await sql.raw("SELECT like_count FROM \(ident: Product.schema) WHERE id = \(bind: productID)").first()
                    : try await sql.raw("""
                        UPDATE \(ident: Product.schema) SET like_count = like_count + \(bind: delta) WHERE id = \(bind: productID)
                        RETURNING like_count
                        """).first()
                counts[productID] = try row?.decode(column: "like_count", as: Int.self) ?? 0
            }
            let day = StatsDay.string(now)
            for (storeID, delta) in storeDelta.sorted(by: { $0.key.uuidString < $1.key.uuidString }) where delta != 0 {
                try await StoreStatsService.bump(storeID: storeID, day: day, likes: delta, on: sql)
            }
            return changes.map { counts[$0.product.id] ?? 0 }
        }
    }
}
