import Fluent
import SQLKit

/// Keeps "store the files, then insert the row" (an upload) and "no row has this hash any more,
/// so remove the files" (a delete) from interleaving for one content hash. Without it a delete
/// could count no rows just before an upload of the same bytes inserted its row, and then remove
/// the files the upload had just been acknowledged for.
///
/// In the process: one of 64 stripes by hash (unrelated hashes sharing a stripe only wait briefly).
/// Across processes on PostgreSQL: a transaction-scoped advisory lock on the hash, which the body
/// runs inside, so the upload's row is committed before the lock is let go.
struct MediaObjectLocks: Sendable {
    private let stripes = (0..<64).map { _ in AsyncSemaphore(permits: 1) }

    func run<T: Sendable>(hash: String, on db: any Database, _ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        let stripe = stripes[Int(hash.prefix(2), radix: 16).map { $0 % stripes.count } ?? 0]
        return try await stripe.run {
            guard let sql = db as? any SQLDatabase, sql.dialect.name == "postgresql" else { return try await body(db) }
            return try await db.transaction { tx in
                try await tx.sql.raw("SELECT pg_advisory_xact_lock(hashtextextended(\(bind: hash), 0))").run()
                return try await body(tx)
            }
        }
    }
}
