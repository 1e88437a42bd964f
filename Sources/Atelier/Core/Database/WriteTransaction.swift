import Fluent
import SQLKit

extension CoreServices {
    /// A transaction that writes. On SQLite, write transactions of this process take turns:
    /// SQLite lets one writer in at a time anyway, and sqlite-nio's busy handler waits for the lock
    /// by spinning on a thread-pool thread, so many concurrent writers on several connections can
    /// starve the pool until the connection timeout (seen with 100 concurrent likes). Waiting here
    /// costs no thread. PostgreSQL runs them side by side.
    /// `beginsWithWrite`: the body's first statement writes (an insert, update or delete), which takes
    /// SQLite's write lock before anything is read, so the transaction need not take it first.
    func writeTransaction<T: Sendable>(
        on db: any Database, beginsWithWrite: Bool = false, _ body: @escaping @Sendable (any Database) async throws -> T
    ) async throws -> T {
        guard !db.inTransaction, (db as? any SQLDatabase)?.dialect.name == "sqlite" else {
            return try await db.transaction(body)
        }
        return try await sqliteWriters.run {
            try await db.withConnection { connection in
                // In WAL mode, NORMAL syncs the log at checkpoints rather than at every commit: a
                // committed write survives the process crashing, and only an OS crash or power cut
                // can lose the last commits (the file never corrupts). The setting is per connection.
                try await connection.sql.raw("PRAGMA synchronous = NORMAL").run()
                return try await connection.transaction { tx in
                    // A write first, so the transaction holds SQLite's write lock before it reads
                    // anything (what BEGIN IMMEDIATE does). A transaction that read first and then
                    // wrote after a write of another connection (an idempotency record, a session
                    // touch) committed would fail with SQLITE_BUSY_SNAPSHOT instead of waiting.
                    if !beginsWithWrite { try await tx.sql.raw("UPDATE _fluent_migrations SET batch = batch WHERE 0").run() }
                    return try await body(tx)
                }
            }
        }
    }
}
