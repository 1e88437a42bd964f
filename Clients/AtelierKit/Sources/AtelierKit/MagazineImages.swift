import AtelierAPI
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a `MagazineLibrary` keeps the magazine's pictures for reading offline: covers, lead images
/// and author photos, one file a picture at the width the app shows them.
public protocol MagazineImageStore: Sendable {
    func data(for key: String) async -> Data?
    func save(_ data: Data, for key: String) async throws
    func remove(_ key: String) async throws
    /// Every stored key with its size in bytes.
    func sizes() async -> [String: Int]
}

public actor InMemoryMagazineImageStore: MagazineImageStore {
    private var files: [String: Data] = [:]

    public init() {}

    public func data(for key: String) -> Data? { files[key] }
    public func save(_ data: Data, for key: String) { files[key] = data }
    public func remove(_ key: String) { files[key] = nil }
    public func sizes() -> [String: Int] { files.mapValues(\.count) }
}

/// One file a picture in a folder (for example in the app's Caches directory).
public actor FolderMagazineImageStore: MagazineImageStore {
    public nonisolated let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    private func url(_ key: String) -> URL { folder.appendingPathComponent(key) }

    public func data(for key: String) -> Data? { try? Data(contentsOf: url(key)) }

    public func save(_ data: Data, for key: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: url(key), options: .atomic)
    }

    public func remove(_ key: String) throws {
        if FileManager.default.fileExists(atPath: url(key).path) { try FileManager.default.removeItem(at: url(key)) }
    }

    public func sizes() -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var sizes: [String: Int] = [:]
        for name in names where !name.hasPrefix(".") {
            sizes[name] = (try? FileManager.default.attributesOfItem(atPath: url(name).path)[.size] as? Int) ?? 0
        }
        return sizes
    }
}

extension MagazineLibrary {
    /// The pictures kept offline: within `maxBytes`, newest issue first (its cover, its articles'
    /// lead images, their authors' photos), each at the smallest JPEG at least `width` pixels wide.
    public struct Images: Sendable {
        public var store: any MagazineImageStore
        public var maxBytes: Int
        public var width: Int
        /// How a picture's bytes are fetched (URLSession by default; tests may pass their own).
        public var fetch: @Sendable (URL) async throws -> Data

        public init(
            store: any MagazineImageStore, maxBytes: Int, width: Int = 750,
            fetch: @escaping @Sendable (URL) async throws -> Data = { url in try await URLSession.shared.data(from: url).0 }
        ) {
            self.store = store
            self.maxBytes = maxBytes
            self.width = width
            self.fetch = fetch
        }
    }

    /// The variant an offline copy keeps of `image`: the smallest JPEG at least `width` wide, else the widest.
    static func variant(of image: Components.Schemas.Image, width: Int) -> Components.Schemas.ImageVariant? {
        image.variant(fittingPoints: Double(width), scale: 1, format: .jpeg)
    }

    static func imageKey(_ image: Components.Schemas.Image, width: Int) -> String? {
        variant(of: image, width: width).map { "\(image.id)-\($0.width).jpg" }
    }

    /// The pictures the copy wants, in the order they are kept: newest issue first.
    static func wantedImages(in snapshot: MagazineSnapshot) -> [Components.Schemas.Image] {
        var wanted: [Components.Schemas.Image] = []
        var seen = Set<String>()
        func add(_ image: Components.Schemas.Image?) {
            guard let image, seen.insert(image.id).inserted else { return }
            wanted.append(image)
        }
        for issue in snapshot.issues.values.sorted(by: { ($0.publishedAt, $0.id) > ($1.publishedAt, $1.id) }) {
            add(issue.cover)
            let articles = snapshot.articles.values.filter { $0.issueId == issue.id }.sorted { $0.position < $1.position }
            for article in articles { add(article.leadImage) }
            for article in articles {
                for author in article.authors { add(snapshot.authors[author.id]?.picture) }
            }
        }
        return wanted
    }
}
