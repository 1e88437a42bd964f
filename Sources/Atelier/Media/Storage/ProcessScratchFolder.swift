import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A folder of this process's own under `parent` (uploads in progress, files being written into
/// the media folder), held by an exclusive `flock` on `<id>.lock` beside it for as long as the
/// process lives. The kernel drops the lock when a process dies, even by `kill -9`, so each
/// start removes the folders whose lock it can take: scratch files never outlive their process,
/// and a second process on the same data folder (a backup, a command) never removes live ones.
final class ProcessScratchFolder: Sendable {
    let url: URL
    private let lockDescriptor: Int32

    init(parent: URL) throws {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        Self.removeAbandoned(in: parent)
        for _ in 0..<5 {
            let id = UUID().idString
            let lockPath = parent.appendingPathComponent("\(id).lock").path
            let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw Self.failure("open \(lockPath)") }
            // Another process's sweep may have taken and removed the new lock file between open and
            // flock; the lock is ours only if the path still names the file we locked.
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, Self.sameFile(descriptor, lockPath) {
                url = parent.appendingPathComponent(id)
                lockDescriptor = descriptor
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                return
            }
            close(descriptor)
        }
        throw Self.failure("lock a scratch folder in \(parent.path)")
    }

    deinit { close(lockDescriptor) }

    /// Removes every folder under `parent` whose owner is gone (its lock can be taken) and
    /// anything that is not a locked folder (left by earlier versions). Returns how many entries went.
    @discardableResult
    static func removeAbandoned(in parent: URL) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        let locks = Set(entries.filter { $0.hasSuffix(".lock") }.map { String($0.dropLast(5)) })
        var removed = 0
        for id in locks {
            let lockPath = parent.appendingPathComponent("\(id).lock").path
            let descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }  // its process is alive
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(id))
            unlink(lockPath)
            removed += 1
        }
        for entry in entries where !entry.hasSuffix(".lock") && !locks.contains(entry) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(entry))
            removed += 1
        }
        return removed
    }

    private static func sameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, stat(path, &named) == 0 else { return false }
        return opened.st_ino == named.st_ino && opened.st_dev == named.st_dev
    }

    private static func failure(_ what: String) -> MediaStoreUnavailable {
        MediaStoreUnavailable(cause: "could not \(what): \(String(cString: strerror(errno)))")
    }
}
