import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

import VipsShim

/// The threads that process images, apart from the application's thread pool: SQLite's
/// connections and bcrypt run there, and a few large photos decoding on it once held every
/// other request up for seconds (and made the database pool time out).
///
/// One image at a time per thread, one thread per core (fewer halved upload throughput: decoding
/// is mostly single-threaded). The threads run at a lower scheduling priority (nice 10; the
/// threads libvips starts from them inherit it), so on a busy machine requests get the CPU first
/// and uploads take longer instead of everything else (docs/benchmarks.md, "Uploads and other requests").
final class ImageWorkers: Sendable {
    static let niceness: Int32 = 10

    let threads: Int
    private let pool: NIOThreadPool
    private let slots: AsyncSemaphore
    private let shutDown = NIOLockedValueBox(false)

    init(threads: Int = System.coreCount) {
        self.threads = threads
        pool = NIOThreadPool(numberOfThreads: threads)
        slots = AsyncSemaphore(permits: threads)
        pool.start()
    }

    /// Runs `work` on an image thread; waits for a free one first (the upload is on disk meanwhile).
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
