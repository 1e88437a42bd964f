import Vapor

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

    init(root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    private func url(_ key: String) -> URL { root.appendingPathComponent(key) }

    func put(key: String, file: URL, contentType: String) async throws {
        let destination = url(key)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: destination.path) { return }  // same key, same bytes
        // Copy to a temporary name first, so a crash never leaves a half-written object under the key.
        let partial = destination.appendingPathExtension("partial-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: file, to: partial)
        try FileManager.default.moveItem(at: partial, to: destination)
    }

    func delete(key: String) async throws {
        let target = url(key)
        if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
        // Remove folders left empty, up to the root.
        var folder = target.deletingLastPathComponent()
        while folder.path.count > root.path.count,
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
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
