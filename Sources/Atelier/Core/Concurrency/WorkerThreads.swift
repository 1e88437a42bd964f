import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

import VipsShim

/// Threads of Atelier's own for work that holds a thread for long: images (`MediaLibrary.imageWorkers`)
/// and whole files zipped and hashed (`MediaLibrary.fileWorkers`). Neither may run on the
/// application's thread pool, where SQLite's connections and bcrypt run (a few large photos
/// decoding there once held every other request up for seconds and made the database pool time
/// out), nor on Swift's concurrency pool, which has one thread per core for every request.
///
/// One job at a time per thread. The threads run at a lower scheduling priority (nice 10; the
/// threads libvips starts from them inherit it), so on a busy machine requests get the CPU first
/// and this work takes longer instead of everything else (docs/benchmarks.md, "Uploads and other requests").
final class WorkerThreads: Sendable {
    static let niceness: Int32 = 10

    let threads: Int
    private let pool: NIOThreadPool
    private let slots: AsyncSemaphore
    private let shutDown = NIOLockedValueBox(false)

    init(threads: Int) {
        self.threads = threads
        pool = NIOThreadPool(numberOfThreads: threads)
        slots = AsyncSemaphore(permits: threads)
        pool.start()
    }

    /// Runs `work` on one of these threads; waits for a free one first.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await slots.run {
            try await pool.runIfActive {
                Self.lowerPriorityOfThisThread()
                return try work()
            }
        }
    }

    func shutdown() async {
        guard shutDown.withLockedValue({ done in defer { done = true }; return !done }) else { return }
        try? await pool.shutdownGracefully()
    }

    private static func lowerPriorityOfThisThread() {
        _ = atelier_lower_thread_priority(niceness)
    }
}
