import Vapor

#if canImport(Glibc)
    import Glibc
#endif

/// Where media files live. Keys are content-addressed ("ab/abcdef…/w540.jpg"), so a stored
/// object never changes and can be cached forever.
protocol MediaStore: Sendable {
    func put(key: String, file: URL, contentType: String) async throws
    func delete(key: String) async throws
    func exists(key: String) async throws -> Bool
    /// The object's bytes as they arrive (for album zips), never the whole object at once.
    func contents(key: String) async throws -> ByteStream
    /// Streams the object to a browser, honouring `Range` and `If-None-Match`.
    func response(for key: String, contentType: String, request: Request) async throws -> Response
}

/// The default backend: a folder (`DATA_DIR/media`).
struct LocalMediaStore: MediaStore {
    let root: URL
    /// Where objects are written before they appear under their key (`media/.partial/<process>`):
    /// inside the media folder, so on the same file system, and removed if the process dies.
    private let partials: ProcessScratchFolder

    init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        partials = try ProcessScratchFolder(parent: root.appendingPathComponent(".partial"))
    }

    private func url(_ key: String) -> URL { root.appendingPathComponent(key) }

    /// Atomic and idempotent: the bytes go to a name of this write's own, then a hard link puts
    /// them under the key in one step, which fails rather than overwrites when the key exists.
    /// Keys are content-addressed, so an existing object holds these very bytes: success.
    /// A half-written object is never visible under a key, and concurrent writers never collide.
    func put(key: String, file: URL, contentType: String) async throws {
        let destination = url(key)
        let partial = partials.url.appendingPathComponent(UUID().uuidString)
        // A second name for the file when it is on the media folder's file system (uploads are, under
        // DATA_DIR): no bytes copied on a request's thread. Elsewhere, a copy. Nothing writes into
        // a file after it is put, so sharing it is safe.
        if link(file.path, partial.path) != 0 {
            do {
                try FileManager.default.copyItem(at: file, to: partial)
            } catch {
                throw MediaStoreUnavailable(cause: "writing \(key): \(error)")
            }
        }
        defer { unlink(partial.path) }
        // A delete of the last object in the folder may remove it between creating and linking;
        // then it is made again.
        for _ in 0..<3 {
            try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            if link(partial.path, destination.path) == 0 || errno == EEXIST { return }
            guard errno == ENOENT else { break }
        }
        throw MediaStoreUnavailable(cause: "linking \(key): \(String(cString: strerror(errno)))")
    }

    func delete(key: String) async throws {
        let target = url(key)
        if unlink(target.path) != 0, errno != ENOENT {
            throw MediaStoreUnavailable(cause: "deleting \(key): \(String(cString: strerror(errno)))")
        }
        // The object's own folder goes when it is empty; the two-letter folders above it stay
        // (at most 256), so a concurrent write of another hash never loses its parent folder.
        let folder = target.deletingLastPathComponent()
        if (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            rmdir(folder.path)
        }
    }

    func exists(key: String) async throws -> Bool {
        FileManager.default.fileExists(atPath: url(key).path)
    }

    func contents(key: String) async throws -> ByteStream {
        guard FileManager.default.fileExists(atPath: url(key).path) else { throw Problem.notFound("media") }
        return ByteStream(FileChunks(url: url(key)))
    }

    func response(for key: String, contentType: String, request: Request) async throws -> Response {
        guard FileManager.default.fileExists(atPath: url(key).path) else { throw Problem.notFound("media") }
        let response = try await request.fileio.asyncStreamFile(at: url(key).path, advancedETagComparison: true)
        response.headers.contentType = HTTPMediaType(type: contentType.split(separator: "/").first.map(String.init) ?? "application",
                                                    subType: contentType.split(separator: "/").last.map(String.init) ?? "octet-stream")
        return response
    }
}

/// Any sequence of byte buffers, read on demand: the next chunk is fetched only when the
/// consumer asks, so a slow reader never makes the source pile up data in memory.
struct ByteStream: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private let make: @Sendable () -> AsyncIterator

    init<Source: AsyncSequence & Sendable>(_ source: Source) where Source.Element == ByteBuffer {
        make = {
            var iterator = source.makeAsyncIterator()
            return AsyncIterator { try await iterator.next() }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let pull: () async throws -> ByteBuffer?
        mutating func next() async throws -> ByteBuffer? { try await pull() }
    }

    func makeAsyncIterator() -> AsyncIterator { make() }
}
