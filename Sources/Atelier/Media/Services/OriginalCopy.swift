import Foundation

extension MediaLibrary {
    /// Copies a stored original into the file at `url` chunk by chunk, never whole in memory (an
    /// account export's photos; the root gives this to `AccountParts`).
    func copyOriginal(_ key: String, to url: URL) async throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw MediaStoreUnavailable(what: "The export's scratch folder", cause: "could not create \(url.path)")
        }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        for try await var chunk in try await store.contents(key: key) {
            try output.write(contentsOf: chunk.readBytes(length: chunk.readableBytes) ?? [])
        }
    }
}
