import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// SQLite connections of Atelier's own for the reads of read-only requests (`Request.reading`).
///
/// Through Fluent's driver, every statement waits for the event loop twice (to take its pool's
/// one connection per event loop, and to be handed each row and the end) besides running on a
/// thread-pool thread: a product page's three statements cost about a dozen thread hand-offs.
/// Here a statement is one hop to the thread pool and back, its rows gathered there, and
/// requests are not tied to their event loop's connection. Each connection keeps its prepared
/// statements (`SQLiteReadConnection`). In WAL mode each statement reads the database as of its
/// start, every commit made before included. Nothing writes through these.
///
/// The statements run on threads of the pool's own, not on the application's thread pool, where
/// Fluent's connections run every write: a write transaction's statements would otherwise wait in
/// one queue behind every read waiting then (issue 19: a like batch's write took 7 ms, most of it
/// queued behind the likes' own look-ups, and the one writer was busy 95 % of the time).
final class SQLiteReadPool: Sendable {
    private let path: String
    private let permits: AsyncSemaphore
    private let idle = NIOLockedValueBox<[SQLiteReadConnection]>([])
    private let threads: NIOThreadPool

    init(path: String, size: Int, threads: Int = System.coreCount) {
        self.path = path
        permits = AsyncSemaphore(permits: max(1, size))
        self.threads = NIOThreadPool(numberOfThreads: max(1, threads))
        self.threads.start()
    }

    /// Runs `body` with a connection no one else uses meanwhile; at most `size` at once.
    func withConnection<T: Sendable>(_ body: (SQLiteReadConnection) async throws -> T) async throws -> T {
        try await permits.run {
            let connection: SQLiteReadConnection
            if let kept = idle.withLockedValue({ $0.popLast() }) {
                connection = kept
            } else {
                connection = try await SQLiteReadConnection.open(path: path, threadPool: threads)
            }
            // Kept after a failed statement too (SQLite resets it), unless it was closed meanwhile.
            defer { if !connection.isClosed { idle.withLockedValue { $0.append(connection) } } }
            return try await body(connection)
        }
    }

    /// Closes the idle connections and stops the threads (at shutdown, once requests have drained).
    func close() async {
        for connection in idle.withLockedValue({ let all = $0; $0 = []; return all }) {
            await connection.close()
        }
        try? await threads.shutdownGracefully()
    }
}
