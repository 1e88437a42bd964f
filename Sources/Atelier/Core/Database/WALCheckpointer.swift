import Logging
import NIOPosix

/// Checkpoints a SQLite file's write-ahead log on a connection and a thread of its own, so that the
/// connection that commits most often (`SQLiteWriter`, the like batches) does not (issue 19).
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1 000 pages: that
/// commit copies the log's pages into the database and syncs both files while the process's one
/// write turn is held, and every like waiting for the next batch waits with it. Here that commit
/// only asks for a checkpoint (`committed`), and this one runs it, PASSIVE: it copies what no reader
/// still needs and never waits for a lock, writers go on meanwhile, and the first write after a
/// complete checkpoint starts the log over. Asking while one runs asks for one more, not many.
/// Should the checkpoints fall behind (their thread starved, a reader holding old pages), the
/// committing connection checkpoints itself again once the log passes `inlineAfter` pages, so the
/// log stays bounded. Durability is the log's: a commit is as durable as before, a checkpoint
/// only moves committed pages into the database file.
final class WALCheckpointer: Sendable {
    /// The log's size, in pages, that asks for a checkpoint: SQLite's own default.
    static let pages: Int32 = 1_000
    /// Past this the committing connection checkpoints itself, as SQLite's automatic one does.
    static let inlineAfter: Int32 = 8_000

    private let wanted: AsyncStream<Void>.Continuation
    private let loop: Task<Void, Never>
    private let thread: NIOThreadPool

    init(path: String, logger: Logger = Logger(label: "atelier.sqlite.checkpoint")) {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        self.thread = thread
        let (requests, wanted) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wanted = wanted
        loop = Task {
            var connection: SQLiteReadConnection?
            for await _ in requests {
                do {
                    if connection?.isClosed ?? true { connection = try await SQLiteReadConnection.open(path: path, threadPool: thread) }
                    try await connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
                } catch {
                    // The next commit past the mark asks again; the log stays bounded meanwhile.
                    logger.warning("checkpoint of the write-ahead log failed: \(error)")
                }
            }
            await connection?.close()
        }
    }

    /// What a connection's commit tells it (`SQLiteReadConnection.onCommit`): true when that
    /// connection is to checkpoint itself now.
    func committed(walPages: Int32) -> Bool {
        if walPages >= Self.inlineAfter { return true }
        if walPages >= Self.pages { wanted.yield() }
        return false
    }

    /// Ends the checkpoints (at shutdown): the one running finishes first.
    func close() async {
        wanted.finish()
        await loop.value
        try? await thread.shutdownGracefully()
    }
}
