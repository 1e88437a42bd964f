import Foundation

/// The media pieces shared by every request: the store, URL signing, limits, the threads that
/// process images and those that zip and hash whole files, the per-hash locks, and this process's
/// scratch folder for uploads in progress.
final class MediaLibrary: Sendable {
    let store: any MediaStore
    let signer: MediaURLSigner
    let limits: ImageLimits
    /// One thread per core: decoding is mostly single-threaded, and fewer halved upload throughput.
    let imageWorkers: WorkerThreads
    /// One thread for the backup's and the account export's zips and hashes, which can take minutes.
    let fileWorkers = WorkerThreads(threads: 1)
    let objectLocks = MediaObjectLocks()
    /// Who may see a private medium of another domain's entity, and which owners' media is shared
    /// (the owning domains register).
    let owners = MediaOwnerAccess()
    /// `DATA_DIR/uploads/<process>`: uploads stream here before processing; the folders of
    /// processes that died are removed at start.
    let scratch: ProcessScratchFolder
    /// Unattached uploads older than this are collected.
    static let unattachedLifetime: TimeInterval = 24 * 3600

    init(store: any MediaStore, signer: MediaURLSigner, limits: ImageLimits, imageWorkers: WorkerThreads, uploadsFolder: URL) throws {
        self.store = store
        self.signer = signer
        self.limits = limits
        self.imageWorkers = imageWorkers
        self.scratch = try ProcessScratchFolder(parent: uploadsFolder)
    }
}
