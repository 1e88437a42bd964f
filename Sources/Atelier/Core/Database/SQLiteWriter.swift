import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit
import SQLKit

/// One SQLite connection of Atelier's own for the write transaction that runs most often, a batch
/// of likes (`LikeGroupCommit`), on a thread of its own. Through Fluent's driver each statement
/// of a transaction is a trip from the caller's task to the event loop, the thread pool and back,
/// and `BEGIN`, `COMMIT` and the connection's turn are trips too: a batch of about eight likes took
/// 5.3 ms, most of it in those trips while the one writer was busy 96 % of the time (issue 19).
/// Here the whole transaction is one trip (`SQLiteReadConnection.transaction`).
///
/// It takes the process's write turn (`AtelierServices.sqliteWriters`) like every other write
/// transaction, so it never meets Fluent's writers at SQLite's lock; another process's writer is
/// waited for by SQLite's busy timeout on this thread (past it, a `503`: `TemporaryFailure`).
/// Foreign keys are enforced, as on Fluent's connections, and commits are `synchronous = NORMAL`,
/// as in `writeTransaction`. Its commits leave the write-ahead log's checkpoints to a thread of
/// their own (`WALCheckpointer`).
final class SQLiteWriter: Sendable {
    private let path: String
    /// The process's write turn (`AtelierServices.sqliteWriters`).
    private let turn: AsyncSemaphore
    private let thread: NIOThreadPool
    /// Opened at the first transaction, within the write turn.
    private let opened = NIOLockedValueBox<SQLiteReadConnection?>(nil)
    let checkpointer: WALCheckpointer

    init(path: String, turn: AsyncSemaphore) {
        self.path = path
        self.turn = turn
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        checkpointer = WALCheckpointer(path: path)
    }

    /// `body` in one write transaction on this connection, its statements written in the dialect of
    /// `database` (Fluent's SQLite): the rows of each statement `body` runs. Committed when `body`
    /// returns, rolled back when it throws.
    func transaction<T: Sendable>(
        dialectOf database: any SQLDatabase,
        _ body: @escaping @Sendable (_ rows: (any SQLExpression) throws -> [SQLiteReadRow]) throws -> T
    ) async throws -> T {
        try await turn.run {
            try await self.connection().transaction { run in
                try body { query in
                    let (sql, binds) = try SQLiteStatementText.make(query, for: database)
                    return try run(sql, binds)
                }
            }
        }
    }

    /// The kept connection, or a new one when there is none yet or it was closed (a transaction
    /// that could not be ended closes it). Within the write turn, so one at a time.
    private func connection() async throws -> SQLiteReadConnection {
        if let kept = opened.withLockedValue({ $0 }), !kept.isClosed { return kept }
        let connection = try await SQLiteReadConnection.open(path: path, threadPool: thread)
        do {
            try await connection.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
            try await connection.onCommit(checkpointer)
        } catch {
            await connection.close()
            throw error
        }
        opened.withLockedValue { $0 = connection }
        return connection
    }

    /// How many transactions went to the connection's thread (tests).
    var trips: Int { opened.withLockedValue { $0?.trips ?? 0 } }

    /// Closes the connection and stops the thread (at shutdown, once requests have drained).
    func close() async {
        await opened.withLockedValue({ $0 })?.close()
        try? await thread.shutdownGracefully()
        await checkpointer.close()
    }
}
