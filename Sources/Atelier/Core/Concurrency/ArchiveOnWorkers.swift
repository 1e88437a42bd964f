import Foundation
import ZIPFoundation

/// A zip file written on worker threads (`MediaLibrary.fileWorkers`): ZIPFoundation reads, checks
/// and writes each entry synchronously, and a backup's or an account export's entries can add up
/// to the whole media library, so none of it may run on Swift's concurrency pool.
/// Every call is awaited before the next one starts, so the archive is never used by two threads
/// at once; that is what makes it safe to hand between threads.
final class ArchiveOnWorkers: @unchecked Sendable {
    private let archive: Archive
    private let workers: WorkerThreads

    init(creating url: URL, on workers: WorkerThreads) throws {
        archive = try Archive(url: url, accessMode: .create)
        self.workers = workers
    }

    /// Runs `body` with the archive on a worker thread (and whatever file work goes with it).
    func run<T: Sendable>(_ body: @escaping @Sendable (Archive) throws -> T) async throws -> T {
        try await workers.run { try body(self.archive) }
    }
}
