import Foundation
import NIOCore
import Testing

@testable import Atelier

@Suite("Media: the folder store")
struct LocalMediaStoreTests {
    private func bytes(_ store: LocalMediaStore, _ key: String) async throws -> [UInt8] {
        var all: [UInt8] = []
        for try await chunk in try await store.contents(key: key) { all += chunk.readableBytesView }
        return all
    }

    @Test("an object put from the same file system or from another keeps its bytes after the source goes, and a second put of the key succeeds")
    func putFromAnywhere() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-store-\(UUID().idString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LocalMediaStore(root: folder.appendingPathComponent("media"))
        // Beside the media folder (a hard link) and, where there is one, on a RAM disk (a copy).
        var sources = [folder.appendingPathComponent("upload")]
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            sources.append(URL(fileURLWithPath: "/dev/shm/atelier-store-\(UUID().idString)"))
        }
        for (index, source) in sources.enumerated() {
            let content = Array("photo \(index) ".utf8) + (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
            try Data(content).write(to: source)
            let key = "ab/ab\(index)cdef/original.jpg"
            try await store.put(key: key, file: source, contentType: "image/jpeg")
            try FileManager.default.removeItem(at: source)
            #expect(try await bytes(store, key) == content)
            // Content-addressed: the same key again is a success, and the object is unchanged.
            let again = folder.appendingPathComponent("again-\(index)")
            try Data(content).write(to: again)
            try await store.put(key: key, file: again, contentType: "image/jpeg")
            #expect(try await bytes(store, key) == content)
            #expect(try await store.exists(key: key))
        }
        // Nothing is left behind in the partial folder.
        let partials = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("media/.partial").path)
        #expect(partials.allSatisfy { !$0.contains("/") })
    }
}
