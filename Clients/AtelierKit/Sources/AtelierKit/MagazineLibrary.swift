import AtelierAPI
import Foundation
import OpenAPIRuntime

/// The magazine offline, in one language: `sync()` brings the copy up to date through the changes
/// feed (`GET /magazine/changes`), and the reads answer from the copy, with or without a network.
///
///     let library = MagazineLibrary(
///         session: session, language: "en", store: FileMagazineStore(url: cachesURL.appending(path: "magazine-en.json")),
///         limits: .init(maxBytes: 50_000_000, maxAge: .seconds(365 * 86_400)))
///     try await library.sync()
///     for issue in await library.issues() { … }
///
/// A sync is all-or-nothing: the new copy (with the new cursor) replaces the old one only once the
/// store has saved it, so a failed sync leaves the previous copy as it was. One store holds one
/// language; a copy in another language found in the store is replaced by a full sync.
public actor MagazineLibrary {
    public typealias Issue = Components.Schemas.MagazineIssue
    public typealias Article = Components.Schemas.MagazineArticle
    public typealias Author = Components.Schemas.MagazineAuthor

    /// What a sync changed. Ids are sorted.
    public struct SyncReport: Sendable, Equatable {
        /// Issues, articles and authors that arrived new or changed.
        public var upsertedIssues: [String] = []
        public var upsertedArticles: [String] = []
        public var upsertedAuthors: [String] = []
        /// What the server says readers no longer see (unpublished).
        public var deletedIssues: [String] = []
        public var deletedArticles: [String] = []
        public var deletedAuthors: [String] = []
        /// What the limits dropped from the local copy this time (it stays on the server).
        public var droppedIssues: [String] = []
        public var droppedArticles: [String] = []
        /// Whether this sync started from nothing: the first one, or the server no longer took the cursor.
        public var wasFullSync = false
        /// The size of the copy now, in bytes of its JSON form.
        public var storedBytes = 0
        /// With `Images`: the pictures kept offline now, their bytes, and how many came this time.
        public var storedImages = 0
        public var storedImageBytes = 0
        public var fetchedImages = 0
    }

    public nonisolated let language: String
    public nonisolated let limits: Limits
    /// The pictures kept offline; nil keeps none (the copy's image URLs need the network).
    public nonisolated let images: Images?
    private let client: Client
    private let store: any MagazineStore
    private let now: @Sendable () -> Date
    /// The copy, once loaded from the store.
    private var copy: MagazineSnapshot?
    /// The sync under way; callers that come meanwhile wait for it instead of starting another.
    private var running: Task<SyncReport, any Error>?

    /// - Parameters:
    ///   - client: a client for the API (`AtelierSession.client` works signed in or not: the
    ///     magazine is public).
    ///   - language: the language to keep the copy in (the server falls back per entity).
    ///   - now: the clock for `maxAge` and the arrival times.
    public init(
        client: Client, language: String, store: any MagazineStore, limits: Limits = .unlimited, images: Images? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.language = language
        self.store = store
        self.limits = limits
        self.images = images
        self.now = now
    }

    public init(
        session: AtelierSession, language: String, store: any MagazineStore, limits: Limits = .unlimited, images: Images? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(client: session.client, language: language, store: store, limits: limits, images: images, now: now)
    }

    /// The bytes of `image` (a cover, lead image or author photo of the copy) kept offline, if any.
    public func imageData(_ image: Components.Schemas.Image) async -> Data? {
        guard let images, let key = Self.imageKey(image, width: images.width) else { return nil }
        return await images.store.data(for: key)
    }

    // MARK: Reading (offline)

    /// The issues in the copy, highest number first. Their `articles` are nil: see `issue(_:)`.
    public func issues() async -> [Issue] {
        await loaded().issues.values.sorted { ($0.number, $0.id) > ($1.number, $1.id) }
    }

    /// The issue and its articles in the copy, by position (none if the limits dropped them).
    public func issue(_ id: String) async -> (issue: Issue, articles: [Article])? {
        let copy = await loaded()
        guard let issue = copy.issues[id.lowercased()] else { return nil }
        let articles = copy.articles.values.filter { $0.issueId == issue.id }.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
        return (issue, articles)
    }

    public func article(_ id: String) async -> Article? {
        await loaded().articles[id.lowercased()]
    }

    public func author(_ id: String) async -> Author? {
        await loaded().authors[id.lowercased()]
    }

    /// When the copy was last brought up to date; nil if it never was.
    public var lastSyncedAt: Date? {
        get async { await loaded().syncedAt }
    }

    // MARK: Syncing

    /// Fetches what changed since the last sync, applies it, enforces the limits and saves the
    /// copy with the new cursor. Throws (leaving the copy as it was) when the server cannot be
    /// reached or the store cannot save.
    @discardableResult
    public func sync() async throws -> SyncReport {
        if let running { return try await running.value }
        let task = Task { try await self.performSync() }
        running = task
        defer { running = nil }
        return try await task.value
    }

    private func performSync() async throws -> SyncReport {
        let base = await loaded()
        var report = SyncReport()
        var next = base
        let changes: Components.Schemas.MagazineChanges
        do {
            changes = try await fetchChanges(since: base.cursor)
        } catch is CursorRejected {
            // The server does not take the cursor any more: start over.
            changes = try await fetchChanges(since: nil)
            next = MagazineSnapshot(language: language)
        }
        report.wasFullSync = next.cursor == nil

        let stamp = now()
        for var issue in changes.issues {
            issue.articles = nil
            next.issues[issue.id] = issue
            next.fetchedAt[issue.id] = stamp
        }
        for article in changes.articles {
            next.articles[article.id] = article
            next.fetchedAt[article.id] = stamp
        }
        for author in changes.authors {
            next.authors[author.id] = author
            next.fetchedAt[author.id] = stamp
        }
        for deletion in changes.deleted {
            switch deletion._type {
            case .issue:
                next.removeIssue(deletion.id)
                report.deletedIssues.append(deletion.id)
            case .article:
                next.removeArticle(deletion.id)
                report.deletedArticles.append(deletion.id)
            case .author:
                next.removeAuthor(deletion.id)
                report.deletedAuthors.append(deletion.id)
            }
        }
        next.cursor = changes.nextCursor
        next.syncedAt = stamp

        let drops = try next.enforce(limits, now: stamp)
        report.upsertedIssues = changes.issues.map(\.id).sorted()
        report.upsertedArticles = changes.articles.map(\.id).sorted()
        report.upsertedAuthors = changes.authors.map(\.id).sorted()
        report.deletedIssues.sort()
        report.deletedArticles.sort()
        report.deletedAuthors.sort()
        report.droppedIssues = drops.issues
        report.droppedArticles = drops.articles
        report.storedBytes = try next.encoded().count

        try await store.save(next)
        copy = next
        if let images { try await keepImages(of: next, images, into: &report) }
        return report
    }

    /// After the copy is saved: fetches the pictures it wants that are missing, newest issue first,
    /// until `maxBytes`, and removes those no longer wanted or past it. A picture that cannot be
    /// fetched is left for the next sync; the copy's text is there either way.
    private func keepImages(of snapshot: MagazineSnapshot, _ images: Images, into report: inout SyncReport) async throws {
        var stored = await images.store.sizes()
        var kept = Set<String>()
        var used = 0
        for image in Self.wantedImages(in: snapshot) {
            guard let variant = Self.variant(of: image, width: images.width), let key = Self.imageKey(image, width: images.width) else { continue }
            var size = stored[key]
            if size == nil {
                guard let url = URL(string: variant.url), let data = try? await images.fetch(url), !data.isEmpty else { continue }
                guard used + data.count <= images.maxBytes else { break }
                try await images.store.save(data, for: key)
                stored[key] = data.count
                size = data.count
                report.fetchedImages += 1
            }
            guard let size, used + size <= images.maxBytes else { break }
            used += size
            kept.insert(key)
        }
        for key in stored.keys where !kept.contains(key) { try await images.store.remove(key) }
        report.storedImages = kept.count
        report.storedImageBytes = used
    }

    private struct CursorRejected: Error {}

    private func fetchChanges(since cursor: String?) async throws -> Components.Schemas.MagazineChanges {
        switch try await client.getMagazineChanges(query: .init(since: cursor, lang: language)) {
        case .ok(let ok):
            return try ok.body.json
        case .badRequest(let response):
            // The only thing the server can refuse here is the cursor.
            if cursor != nil { throw CursorRejected() }
            let detail = (try? response.body.applicationProblemJson.detail) ?? nil
            throw AtelierError.unexpectedResponse("getMagazineChanges: 400 \(detail ?? "")")
        case .unauthorized:
            throw AtelierError.unexpectedResponse("getMagazineChanges: 401")
        case .undocumented(statusCode: 429, _):
            throw AtelierError.rateLimited(retryAfter: nil)
        case .undocumented(let status, _):
            throw AtelierError.unexpectedResponse("getMagazineChanges: HTTP \(status)")
        }
    }

    /// The copy, loaded from the store the first time. A copy that cannot be read, or is in
    /// another language, counts as none: the next sync fetches everything and replaces it.
    private func loaded() async -> MagazineSnapshot {
        if let copy { return copy }
        var stored = try? await store.load()
        if stored?.language != language { stored = nil }
        // Another call may have loaded (or synced) while this one waited.
        if copy == nil { copy = stored ?? MagazineSnapshot(language: language) }
        return copy!
    }
}
