import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The media pieces shared by every request: the store, URL signing, limits, the pool that runs
/// image work off the event loops, and the scratch folder for uploads in progress.
final class MediaLibrary: Sendable {
    let store: any MediaStore
    let signer: MediaURLSigner
    let limits: ImageLimits
    let threadPool: NIOThreadPool
    let workRoot: URL
    /// Images processed at once. libvips already spreads one image over every core, so more at
    /// once only multiplies memory; further uploads wait their turn (they are on disk meanwhile).
    let processingSlots: AsyncSemaphore
    /// Unattached uploads older than this are collected.
    static let unattachedLifetime: TimeInterval = 24 * 3600

    init(store: any MediaStore, signer: MediaURLSigner, limits: ImageLimits, threadPool: NIOThreadPool, workRoot: URL) throws {
        self.store = store
        self.signer = signer
        self.limits = limits
        self.threadPool = threadPool
        self.workRoot = workRoot
        self.processingSlots = AsyncSemaphore(permits: max(1, System.coreCount))
        try FileManager.default.createDirectory(at: workRoot, withIntermediateDirectories: true)
    }
}

/// Lets at most `permits` callers run at once; the others wait in order.
final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    init(permits: Int) {
        state = NIOLockedValueBox(State(available: permits))
    }

    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLockedValue { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
