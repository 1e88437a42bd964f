import AtelierKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@testable import Atelier

/// Editors' work on the in-process server, as `MagazineEditor` does it.
struct MagazineDesk {
    let server: LiveServer
    var editor: MagazineEditor { MagazineEditor(db: server.app.db, core: server.app.core, mediaLibrary: server.app.atelier.media) }

    func author() async throws -> UUID {
        try await editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."]).requireID()
    }

    /// Issue `number` with one published article per title, published now.
    func publishIssue(_ number: Int, titles: [String], author: UUID, padding: Int = 0) async throws -> (Atelier.MagazineIssue, [Atelier.MagazineArticle]) {
        let issue = try await editor.createIssue(number: number, labels: ["en": "Issue \(number)"])
        var articles: [Atelier.MagazineArticle] = []
        for (position, title) in titles.enumerated() {
            let article = try await editor.createArticle(in: issue, position: position, authors: [author])
            let markdown = "Text of \(title).\n\n" + String(repeating: "Wool and linen. ", count: padding)
            try await editor.setText(.init(slug: "", title: title, summary: "About \(title).", markdown: markdown), lang: "en", of: article)
            try await editor.setPublished(true, article)
            articles.append(article)
        }
        try await editor.publish(issue)
        return (issue, articles)
    }

    /// Past the feed's settle window, so what was just done shows up in the next sync.
    func settle() { server.clock.advance(by: 5) }
}

private func anonymousClient(_ server: LiveServer) -> AtelierAPI.Client {
    AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore()).client
}

private func temporaryFile() -> URL {
    URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("kit-magazine-\(UUID().uuidString)/magazine-en.json")
}

private extension UUID {
    var wire: String { uuidString.lowercased() }
}

/// Fails every save while `failing` is on.
private actor FlakyMagazineStore: MagazineStore {
    let inner = InMemoryMagazineStore()
    var failing = false
    struct Failure: Error {}

    func setFailing(_ value: Bool) { failing = value }
    func load() async throws -> MagazineSnapshot? { await inner.load() }
    func save(_ snapshot: MagazineSnapshot) async throws {
        if failing { throw Failure() }
        await inner.save(snapshot)
    }
}

@Suite("MagazineLibrary: the offline magazine")
struct MagazineLibraryTests {
    @Test("syncs the changes feed into a file; after edits the delta is applied and the copy equals the server's published state")
    func deltaSync() async throws {
        try await LiveServer.with { server in
            let desk = MagazineDesk(server: server)
            let author = try await desk.author()
            let (first, articles) = try await desk.publishIssue(1, titles: ["Wool", "Hems"], author: author)
            desk.settle()

            let client = anonymousClient(server)
            let url = temporaryFile()
            let library = MagazineLibrary(client: client, language: "en", store: FileMagazineStore(url: url))
            let initial = try await library.sync()
            #expect(initial.wasFullSync)
            #expect(initial.upsertedIssues == [first.id!.wire])
            #expect(Set(initial.upsertedArticles) == Set(articles.map { $0.id!.wire }))
            #expect(initial.upsertedAuthors == [author.wire])
            #expect(initial.deletedArticles.isEmpty && initial.droppedArticles.isEmpty)
            #expect(await library.issue(first.id!.wire)?.articles.map(\.title) == ["Wool", "Hems"])

            // The editor changes one article, unpublishes the other, publishes issue 2 with one article.
            try await desk.editor.setText(.init(slug: "wool", title: "Wool, revised", summary: "", markdown: "New text."), lang: "en", of: articles[0])
            try await desk.editor.setPublished(false, articles[1])
            let (second, newArticles) = try await desk.publishIssue(2, titles: ["Boots"], author: author)
            desk.settle()

            let delta = try await library.sync()
            #expect(!delta.wasFullSync)
            #expect(delta.upsertedIssues == [second.id!.wire])
            #expect(delta.upsertedArticles == [articles[0].id!.wire, newArticles[0].id!.wire].sorted())
            #expect(delta.deletedArticles == [articles[1].id!.wire])
            #expect(delta.deletedIssues.isEmpty && delta.upsertedAuthors.isEmpty)
            #expect(await library.article(articles[0].id!.wire)?.title == "Wool, revised")
            #expect(await library.article(articles[1].id!.wire) == nil)

            // The local copy equals what the server publishes now.
            let published = try await client.listMagazineIssues(query: .init(lang: "en")).ok.body.json.items
            let local = await library.issues()
            #expect(local == published)
            #expect(local.map(\.number) == [2, 1])
            for issue in published {
                let full = try await client.getMagazineIssue(path: .init(issueId: issue.id), query: .init(lang: "en")).ok.body.json
                let copy = try #require(await library.issue(issue.id))
                #expect(copy.articles == full.articles)
                for article in full.articles ?? [] {
                    #expect(await library.article(article.id) == article)
                }
            }
            let serverAuthor = try await client.getMagazineAuthor(path: .init(authorId: author.wire), query: .init(lang: "en")).ok.body.json
            #expect(await library.author(author.wire) == serverAuthor)

            // The file holds the same copy, with the cursor; a sync with nothing new changes nothing.
            let stored = try #require(try await FileMagazineStore(url: url).load())
            #expect(stored.cursor != nil && stored.language == "en" && stored.issues.count == 2 && stored.articles.count == 2)
            desk.settle()
            let quiet = try await library.sync()
            #expect(quiet.upsertedIssues.isEmpty && quiet.upsertedArticles.isEmpty && quiet.deletedArticles.isEmpty)
            #expect(await library.issues() == published)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            #expect(leftovers == [url.lastPathComponent])  // no temporary files left behind
        }
    }

    @Test("reads an issue from the offline library after the server is stopped")
    func offline() async throws {
        let server = try await LiveServer.start()
        var serverRunning = true
        do {
            let desk = MagazineDesk(server: server)
            let author = try await desk.author()
            let (issue, articles) = try await desk.publishIssue(7, titles: ["Linen", "Buttons"], author: author)
            desk.settle()
            let url = temporaryFile()
            let client = anonymousClient(server)
            try await MagazineLibrary(client: client, language: "en", store: FileMagazineStore(url: url)).sync()

            try await server.stop()
            serverRunning = false

            // The app is relaunched: a new library on the same file, no network.
            let library = MagazineLibrary(client: client, language: "en", store: FileMagazineStore(url: url))
            #expect(await library.issues().map(\.number) == [7])
            let copy = try #require(await library.issue(issue.id!.uuidString))  // any case of the id
            #expect(copy.issue.label == "Issue 7")
            #expect(copy.articles.map(\.title) == ["Linen", "Buttons"])
            #expect(await library.article(articles[1].id!.wire)?.html.contains("Text of Buttons.") == true)
            #expect(await library.author(author.wire)?.name == "Ioana Marin")
            #expect(await library.lastSyncedAt != nil)

            await #expect(throws: (any Error).self) { try await library.sync() }
            #expect(await library.issue(issue.id!.wire)?.articles.count == 2)
            let stored = try #require(try await FileMagazineStore(url: url).load())
            #expect(stored.articles.count == 2)
        } catch {
            if serverRunning { try? await server.stop() }
            throw error
        }
    }

    @Test("maxAge drops issues published too long ago, with their articles, and keeps the cursor")
    func maxAge() async throws {
        try await LiveServer.with { server in
            let desk = MagazineDesk(server: server)
            let author = try await desk.author()
            let (old, oldArticles) = try await desk.publishIssue(1, titles: ["Old wool"], author: author)
            server.clock.advance(by: 40 * 86_400)
            let (recent, recentArticles) = try await desk.publishIssue(2, titles: ["New wool", "New hems"], author: author)
            desk.settle()

            let clock = server.clock
            let library = MagazineLibrary(
                client: anonymousClient(server), language: "en", store: InMemoryMagazineStore(),
                limits: .init(maxAge: .seconds(30 * 86_400)), now: { clock.now() })
            let report = try await library.sync()
            #expect(report.upsertedIssues.count == 2)
            #expect(report.droppedIssues == [old.id!.wire])
            #expect(report.droppedArticles == [oldArticles[0].id!.wire])
            #expect(await library.issues().map(\.id) == [recent.id!.wire])
            #expect(await library.issue(old.id!.wire) == nil)
            #expect(await library.article(oldArticles[0].id!.wire) == nil)
            #expect(await library.issue(recent.id!.wire)?.articles.map(\.id) == recentArticles.map { $0.id!.wire })

            // Dropping is local: the cursor moved on, so the old issue does not come back.
            desk.settle()
            let quiet = try await library.sync()
            #expect(quiet.upsertedIssues.isEmpty && quiet.droppedIssues.isEmpty)
            #expect(await library.issues().map(\.number) == [2])
        }
    }

    @Test("maxBytes drops the articles of the oldest issues first")
    func maxBytes() async throws {
        try await LiveServer.with { server in
            let desk = MagazineDesk(server: server)
            let author = try await desk.author()
            var published: [(Atelier.MagazineIssue, [Atelier.MagazineArticle])] = []
            for number in 1...3 {
                published.append(try await desk.publishIssue(number, titles: ["Part \(number)a", "Part \(number)b"], author: author, padding: 400))
                server.clock.advance(by: 3600)
            }
            let ids = published.map { (issue: $0.0.id!.wire, articles: Set($0.1.map { $0.id!.wire })) }
            desk.settle()
            let client = anonymousClient(server)
            // The same clock for every library, so their copies (arrival times included) are the same size.
            let clock = server.clock
            let now: @Sendable () -> Date = { clock.now() }

            let everything = MagazineLibrary(client: client, language: "en", store: InMemoryMagazineStore(), now: now)
            let full = try await everything.sync()
            #expect(full.droppedArticles.isEmpty)
            let total = full.storedBytes

            // Just under the full size: the oldest issue loses its articles, and stays listed.
            let store = InMemoryMagazineStore()
            let tight = MagazineLibrary(client: client, language: "en", store: store, limits: .init(maxBytes: total - 1), now: now)
            let report = try await tight.sync()
            #expect(Set(report.droppedArticles) == ids[0].articles)
            #expect(report.droppedIssues.isEmpty)
            #expect(report.storedBytes <= total - 1)
            #expect(await tight.issues().map(\.number) == [3, 2, 1])
            #expect(await tight.issue(ids[0].issue)?.articles.isEmpty == true)
            #expect(await tight.issue(ids[1].issue)?.articles.count == 2)
            #expect(await tight.issue(ids[2].issue)?.articles.count == 2)
            let saved = try #require(await store.load())
            #expect(try saved.encoded().count == report.storedBytes)

            // Less room than that: the next oldest issue goes too; the newest keeps its articles.
            let firstIssueBytes = try await everything.issue(ids[0].issue)!.articles.reduce(0) { $0 + (try JSONEncoder().encode($1).count) }
            let tighter = MagazineLibrary(client: client, language: "en", store: InMemoryMagazineStore(),
                                          limits: .init(maxBytes: total - firstIssueBytes - 1000), now: now)
            let smaller = try await tighter.sync()
            #expect(Set(smaller.droppedArticles) == ids[0].articles.union(ids[1].articles))
            #expect(smaller.storedBytes <= total - firstIssueBytes - 1000)
            #expect(await tighter.issue(ids[2].issue)?.articles.count == 2)
        }
    }

    @Test("pictures offline: covers and author photos within the budget, newest issue first; the rest is removed")
    func offlineImages() async throws {
        try await LiveServer.with { server in
            let desk = MagazineDesk(server: server)
            let uploader = try await AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
                .signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Picture Desk").id
            func picture(_ colour: ColourName) async throws -> UUID {
                try await MediaService(db: server.app.db, core: server.app.core, mediaLibrary: server.app.atelier.media).ingest(
                    .init(uploaderID: UUID(uuidString: uploader)!, claimed: nil, edits: ImageEdits(), visibility: .public),
                    data: try WardrobeDemoSeed.photo(type: "dress", colour: colour, shape: 0)).requireID()
            }
            let author = try await desk.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."], pictureMediaID: try await picture(.red)).requireID()
            var covers: [UUID] = []
            for (number, colour) in [(1, ColourName.navy), (2, ColourName.green)] {
                let cover = try await picture(colour)
                covers.append(cover)
                let issue = try await desk.editor.createIssue(number: number, labels: ["en": "Issue \(number)"], coverMediaID: cover)
                let article = try await desk.editor.createArticle(in: issue, position: 0, authors: [author])
                try await desk.editor.setText(.init(slug: "", title: "Story \(number)", summary: "", markdown: "Text."), lang: "en", of: article)
                try await desk.editor.setPublished(true, article)
                try await desk.editor.publish(issue)
                server.clock.advance(by: 60)
            }
            desk.settle()
            // The media URLs name the configured public address; here they are fetched from the test server.
            let base = server.app.atelier.config.publicBaseURL
            let fetch: @Sendable (URL) async throws -> Data = { url in
                let path = String(url.absoluteString.dropFirst(base.count))
                return try await URLSession.shared.data(from: URL(string: server.baseURL.absoluteString + path)!).0
            }

            // Everything first, to learn the sizes.
            let everything = InMemoryMagazineImageStore()
            let full = MagazineLibrary(
                client: anonymousClient(server), language: "en", store: InMemoryMagazineStore(),
                images: .init(store: everything, maxBytes: 100_000_000, width: 270, fetch: fetch))
            let first = try await full.sync()
            #expect(first.storedImages == 3 && first.fetchedImages == 3)
            let sizes = await everything.sizes()
            func size(_ id: UUID) -> Int { sizes.first { $0.key.hasPrefix(id.wire) }?.value ?? -1 }
            let newest = await full.issues().first { $0.number == 2 }
            #expect(await full.imageData(try #require(newest?.cover)) != nil)
            // Offline reading: the second sync fetches nothing new.
            #expect(try await full.sync().fetchedImages == 0)

            // A budget for the newest issue's cover and the author's photo only: the older cover stays out.
            let budget = size(covers[1]) + sizes.filter { !$0.key.hasPrefix(covers[0].wire) && !$0.key.hasPrefix(covers[1].wire) }.values.reduce(0, +)
            let small = InMemoryMagazineImageStore()
            let tight = MagazineLibrary(
                client: anonymousClient(server), language: "en", store: InMemoryMagazineStore(),
                images: .init(store: small, maxBytes: budget, width: 270, fetch: fetch))
            let report = try await tight.sync()
            #expect(report.storedImages == 2 && report.storedImageBytes <= budget)
            let kept = Set(await small.sizes().keys)
            #expect(kept.contains { $0.hasPrefix(covers[1].wire) } && !kept.contains { $0.hasPrefix(covers[0].wire) })
            let oldest = await tight.issues().first { $0.number == 1 }
            #expect(await tight.imageData(try #require(oldest?.cover)) == nil)
        }
    }

    @Test("a sync whose save fails leaves the copy and the cursor as they were")
    func failedSave() async throws {
        try await LiveServer.with { server in
            let desk = MagazineDesk(server: server)
            let author = try await desk.author()
            let (issue, articles) = try await desk.publishIssue(1, titles: ["Wool"], author: author)
            desk.settle()
            let store = FlakyMagazineStore()
            let library = MagazineLibrary(client: anonymousClient(server), language: "en", store: store)
            try await library.sync()
            let before = try #require(try await store.load())

            try await desk.editor.setText(.init(slug: "wool", title: "Wool, revised", summary: "", markdown: "New."), lang: "en", of: articles[0])
            desk.settle()
            await store.setFailing(true)
            await #expect(throws: FlakyMagazineStore.Failure.self) { try await library.sync() }
            #expect(await library.article(articles[0].id!.wire)?.title == "Wool")
            #expect(try await store.load() == before)

            await store.setFailing(false)
            let report = try await library.sync()
            #expect(report.upsertedArticles == [articles[0].id!.wire])
            #expect(await library.issue(issue.id!.wire)?.articles.first?.title == "Wool, revised")
        }
    }
}
