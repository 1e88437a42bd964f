import AtelierAPI
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The offline copy of the magazine in one language, as a `MagazineStore` keeps it: the entities
/// keyed by id, the cursor of the changes feed to continue from, and when things arrived.
public struct MagazineSnapshot: Codable, Sendable, Equatable {
    /// The layout of this structure, for future migrations.
    public var version: Int
    /// The language the copy was synced in (the feed sends everything in one language).
    public var language: String
    /// The `nextCursor` of the last sync; nil before the first.
    public var cursor: String?
    /// Issues without their articles (`articles` is nil); the articles are in `articles`.
    public var issues: [String: Components.Schemas.MagazineIssue]
    public var articles: [String: Components.Schemas.MagazineArticle]
    public var authors: [String: Components.Schemas.MagazineAuthor]
    /// When each entity (by id) last arrived from the server.
    public var fetchedAt: [String: Date]
    /// When the last successful sync finished.
    public var syncedAt: Date?

    public init(
        language: String, cursor: String? = nil, issues: [String: Components.Schemas.MagazineIssue] = [:],
        articles: [String: Components.Schemas.MagazineArticle] = [:], authors: [String: Components.Schemas.MagazineAuthor] = [:],
        fetchedAt: [String: Date] = [:], syncedAt: Date? = nil
    ) {
        self.version = 1
        self.language = language
        self.cursor = cursor
        self.issues = issues
        self.articles = articles
        self.authors = authors
        self.fetchedAt = fetchedAt
        self.syncedAt = syncedAt
    }

    /// The JSON form `FileMagazineStore` writes; its size is what `Limits.maxBytes` limits.
    public func encoded() throws -> Data {
        try Self.encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> MagazineSnapshot {
        try JSONDecoder().decode(MagazineSnapshot.self, from: data)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// Where a `MagazineLibrary` keeps its copy between launches. `save` replaces the whole copy and
/// must be all-or-nothing: after a failed save, `load` still returns the previous copy.
public protocol MagazineStore: Sendable {
    func load() async throws -> MagazineSnapshot?
    func save(_ snapshot: MagazineSnapshot) async throws
}

/// Keeps the copy in memory (tests, previews, or an app that does not want one on disk).
public actor InMemoryMagazineStore: MagazineStore {
    private var snapshot: MagazineSnapshot?

    public init(_ snapshot: MagazineSnapshot? = nil) {
        self.snapshot = snapshot
    }

    public func load() -> MagazineSnapshot? { snapshot }
    public func save(_ snapshot: MagazineSnapshot) { self.snapshot = snapshot }
}

/// Keeps the copy in a JSON file. A save writes a temporary file next to it, flushes it to disk
/// and renames it over the old one, so the file is always either the old copy or the new one.
public actor FileMagazineStore: MagazineStore {
    public nonisolated let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> MagazineSnapshot? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try MagazineSnapshot.decode(Data(contentsOf: url))
    }

    public func save(_ snapshot: MagazineSnapshot) throws {
        let data = try snapshot.encoded()
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            // rename(2) replaces the old file in one step.
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": errno])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}
