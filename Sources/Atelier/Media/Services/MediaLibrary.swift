import Foundation
import NIOPosix

/// The media pieces shared by every request: the store, URL signing, limits, the pool that runs
/// image work off the event loops, and the scratch folder for uploads in progress.
final class MediaLibrary: Sendable {
    let store: any MediaStore
    let signer: MediaURLSigner
    let limits: ImageLimits
    let threadPool: NIOThreadPool
    let workRoot: URL
    /// Unattached uploads older than this are collected.
    static let unattachedLifetime: TimeInterval = 24 * 3600

    init(store: any MediaStore, signer: MediaURLSigner, limits: ImageLimits, threadPool: NIOThreadPool, workRoot: URL) throws {
        self.store = store
        self.signer = signer
        self.limits = limits
        self.threadPool = threadPool
        self.workRoot = workRoot
        try FileManager.default.createDirectory(at: workRoot, withIntermediateDirectories: true)
    }
}
