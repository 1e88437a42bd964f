import Foundation
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
