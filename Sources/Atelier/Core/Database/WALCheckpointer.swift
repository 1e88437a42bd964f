import Logging
import NIOConcurrencyHelpers
import NIOPosix
import VaporCSQLite

/// Checkpoints a SQLite file's write-ahead log on a connection and a thread of its own, so that the
/// connection that commits most often (`SQLiteWriter`, the like batches) does not (issue 19).
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1 000 pages: that
/// commit copies the log's pages into the database and syncs both files while the process's one
/// write turn is held, and every like waiting for the next batch waits with it. Here that commit
/// only asks for a checkpoint (`committed`), and this one runs it, PASSIVE: it copies what no reader
/// still needs and never waits for a lock, writers go on meanwhile, and the first write after a
/// complete checkpoint starts the log over. Asking while one runs asks for one more, not many.
///
/// Under a steady stream of commits a background checkpoint may never be complete (each overlaps
/// the next commit), and then the log never starts over. So once it passes `inlineAfter` pages the
/// committing connection checkpoints itself, waiting out the log's readers (RESTART), and this one
/// stops taking the checkpoint lock from it (SQLite does not wait for that lock: a commit meeting
/// a checkpoint still running here tries again at the next): the log stays bounded.
///
/// Durability is the log's: a commit is as durable as before, a checkpoint only moves committed
/// pages into the database file.
final class WALCheckpointer: Sendable {
    /// The log's size, in pages, that asks for a checkpoint: SQLite's own default.
    static let pages: Int32 = 1_000
    /// Past this the committing connection checkpoints itself.
    static let inlineAfter: Int32 = 8_000

    private struct Counts {
        var background = 0
        var inline = 0
        var pagesAtLastCommit: Int32 = 0
    }

    private let wanted: AsyncStream<Void>.Continuation
    private let loop: Task<Void, Never>
    private let thread: NIOThreadPool
    private let counts = NIOLockedValueBox(Counts())
    private let logger: Logger

    init(path: String, logger: Logger = Logger(label: "atelier.sqlite.checkpoint")) {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        self.thread = thread
        self.logger = logger
        let (requests, wanted) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.wanted = wanted
        loop = Task { [counts] in
            var connection: SQLiteReadConnection?
            var failing = false
            for await _ in requests {
                // Far past the mark the committing connection checkpoints itself, and a checkpoint
                // here would hold the checkpoint lock it needs (SQLite does not wait for that lock).
                if counts.withLockedValue({ $0.pagesAtLastCommit }) >= Self.inlineAfter { continue }
                do {
                    if connection?.isClosed ?? true { connection = try await SQLiteReadConnection.open(path: path, threadPool: thread) }
                    try await connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    counts.withLockedValue { $0.background += 1 }
                    failing = false
                } catch {
                    // Once per run of failures: every commit past the mark asks again, and the
                    // committing connection keeps the log bounded meanwhile.
                    if !failing { logger.warning("checkpoint of the write-ahead log failed: \(error)") }
                    failing = true
                }
            }
            await connection?.close()
        }
    }

    /// What a connection's commit tells it (`SQLiteReadConnection.onCommit`): true when that
    /// connection is to checkpoint itself now.
    func committed(walPages: Int32) -> Bool {
        counts.withLockedValue { $0.pagesAtLastCommit = walPages }
        if walPages >= Self.inlineAfter { return true }
        if walPages >= Self.pages { wanted.yield() }
        return false
    }

    /// The result of a checkpoint the committing connection ran itself. Busy, a checkpoint here
    /// still held the lock; the next commit tries again.
    func checkpointedInline(result: Int32) {
        counts.withLockedValue { $0.inline += 1 }
        if result != SQLITE_OK, result & 0xFF != SQLITE_BUSY {
            logger.warning("checkpoint of the write-ahead log by its writer failed: SQLite error \(result)")
        }
    }

    /// Checkpoints run here and by the committing connection, and the log's size at the last commit (tests).
    var checkpoints: (background: Int, inline: Int, pagesAtLastCommit: Int32) {
        counts.withLockedValue { ($0.background, $0.inline, $0.pagesAtLastCommit) }
    }

    /// Ends the checkpoints (at shutdown): the one running finishes first.
    func close() async {
        wanted.finish()
        await loop.value
        try? await thread.shutdownGracefully()
    }
}
