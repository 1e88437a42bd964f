import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// The parts of the editor API's answers the tests look at.
private struct EditorIssueBody: Decodable {
    struct Summary: Decodable { var id: String; var status: String; var title: String; var languages: [String] }
    var id: String
    var number: Int
    var labels: [String: String]
    var status: String
    var publishAt: Date?
    var pdfs: [String: String]
    var articles: [Summary]?
}

private struct EditorArticleBody: Decodable {
    struct Text: Decodable { var slug: String; var title: String; var summary: String; var markdown: String; var html: String }
    struct Author: Decodable { var id: String; var name: String }
    var id: String
    var issueId: String
    var position: Int
    var status: String
    var completeArticle: Bool
    var webURL: String?
    var authors: [Author]
    var texts: [String: Text]
}

/// An account calling `/api/v1/magazine/editor…`.
private struct EditorClient {
    let t: TestApp
    let token: String?

    /// A new account; an editor when asked.
    static func make(_ t: TestApp, editor: Bool) async throws -> EditorClient {
        let session = try await t.signUp(email: uniqueEmail(editor ? "editor" : "shopper"), name: editor ? "Edna Editor" : "Sam Shopper")
        if editor {
            let user = try #require(try await User.find(UUID(uuidString: session.user.id), on: t.app.db))
            user.isEditor = true
            try await user.save(on: t.app.db)
        }
        return EditorClient(t: t, token: session.accessToken)
    }

    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, _ json: String? = nil) async throws -> TestingHTTPResponse {
        try await t.send(method, "/api/v1/magazine/editor\(path)", json: json, token: token)
    }

    func pdf(_ path: String, _ bytes: Data) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "application", subType: "pdf")
        if let token { headers.bearerAuthorization = .init(token: token) }
        return try await t.app.testing().sendRequest(.PUT, "/api/v1/magazine/editor\(path)", headers: headers, body: ByteBuffer(data: bytes))
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: TestingHTTPResponse, _ status: HTTPStatus = .ok) throws -> T {
        #expect(response.status == status, "\(response.body.string)")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: Data(buffer: response.body))
    }

    func createIssue(_ number: Int, labels: [String: String]) async throws -> EditorIssueBody {
        try decode(EditorIssueBody.self, try await send(.POST, "/issues", json(["number": number, "labels": labels])), .created)
    }
}

private func json(_ object: Any) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

private func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

@Suite("API: magazine editor")
struct MagazineEditorAPITests {
    /// The configured languages: the default and another.
    func languages(_ t: TestApp) throws -> (String, String) {
        let all = t.app.atelier.config.magazineLanguages
        try #require(all.count >= 2, "the tests write in two languages")
        return (all[0], all[1])
    }

    @Test("an editor creates an issue with an article in two languages, schedules it; at its time readers see it in both languages")
    func createScheduleRead() async throws {
        try await TestApp.with { t in
            let (en, ro) = try languages(t)
            let e = try await EditorClient.make(t, editor: true)
            let number = Int.random(in: 100_000...9_999_999)
            let issue = try await e.createIssue(number, labels: [en: "Issue \(number)", ro: "Numărul \(number)"])
            #expect(issue.status == "draft" && issue.labels == [en: "Issue \(number)", ro: "Numărul \(number)"])

            let author = try e.decode([String: AnyDecodable].self, try await e.send(.POST, "/authors", json([
                "name": "Ioana Marin", "bios": [en: "Writes about wool.", ro: "Scrie despre lână."]])), .created)
            let authorID = try #require(author["id"]?.string)

            let created = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/issues/\(issue.id)/articles", json([
                "authors": [authorID],
                "texts": [
                    en: ["title": "Wool in winter", "summary": "Why wool.", "markdown": "Wool is **warm**."],
                    ro: ["title": "Lâna iarna", "summary": "De ce lână.", "markdown": "Lâna este **caldă**."],
                ],
            ])), .created)
            #expect(created.status == "draft" && created.position == 0 && created.authors.map(\.name) == ["Ioana Marin"])
            #expect(created.texts[en]?.html.contains("<strong>warm</strong>") == true)
            #expect(created.texts[ro]?.title == "Lâna iarna" && created.texts[ro]?.slug == "lana-iarna")
            let published = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/articles/\(created.id)/publish"))
            #expect(published.status == "published")

            // Scheduling needs a time ahead.
            let past = try await e.send(.POST, "/issues/\(issue.id)/schedule", json(["publishAt": iso(t.clock.now().addingTimeInterval(-60))]))
            #expect(past.status == .unprocessableEntity)
            #expect(try past.problem().fields == ["publishAt"])
            let publishAt = t.clock.now().addingTimeInterval(3600)
            let scheduled = try e.decode(EditorIssueBody.self, try await e.send(.POST, "/issues/\(issue.id)/schedule", json(["publishAt": iso(publishAt)])))
            #expect(scheduled.status == "scheduled" && scheduled.articles?.map(\.id) == [created.id])
            #expect(scheduled.articles?.first?.languages == [en, ro].sorted())

            // Not before its time.
            #expect(try await t.send(.GET, "/api/v1/magazine/issues").body.string.contains(issue.id) == false)
            #expect(try await t.send(.GET, "/api/v1/magazine/articles/\(created.id)").status == .notFound)

            t.clock.advance(by: 3605)
            #expect(try await t.editor.publishDue() >= 1)
            for (lang, label, title) in [(en, "Issue \(number)", "Wool in winter"), (ro, "Numărul \(number)", "Lâna iarna")] {
                let list = try await t.send(.GET, "/api/v1/magazine/issues?lang=\(lang)")
                #expect(list.status == .ok)
                let items = try list.content.decode([String: [MagazineIssueBody]].self)["items"] ?? []
                let listed = try #require(items.first { $0.id == issue.id })
                #expect(listed.label == label && listed.language == lang)
                let read = try await t.send(.GET, "/api/v1/magazine/articles/\(created.id)?lang=\(lang)")
                #expect(read.status == .ok)
                let article = try read.content.decode(MagazineArticleBody.self)
                #expect(article.title == title && article.language == lang)
            }
            // (An hour on, the first access token has expired: another editor looks.)
            let later = try await EditorClient.make(t, editor: true)
            let mine = try later.decode([String: [EditorIssueBody]].self, try await later.send(.GET, "/issues"))["items"] ?? []
            #expect(mine.first { $0.id == issue.id }?.status == "published")
        }
    }

    @Test("Markdown written through the API is made safe exactly as the portal makes it")
    func safeMarkdown() async throws {
        try await TestApp.with { t in
            let (en, _) = try languages(t)
            let e = try await EditorClient.make(t, editor: true)
            let issue = try await e.createIssue(Int.random(in: 100_000...9_999_999), labels: [en: "Unsafe"])
            let markdown = "<script>alert(1)</script>\n\nHello **world** [x](javascript:alert(1)) <img src=x onerror=alert(1)>"
            let article = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/issues/\(issue.id)/articles", json([
                "texts": [en: ["title": "Unsafe", "markdown": markdown]]])), .created)
            let html = try #require(article.texts[en]?.html)
            #expect(html == MarkdownRenderer.html(markdown), "the portal's renderer")
            #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("href=\"javascript"), "\(html)")
            #expect(html.contains("<strong>world</strong>"))
            #expect(article.texts[en]?.markdown == markdown, "the Markdown is kept as written")
            let preview = try e.decode([String: String].self, try await e.send(.POST, "/preview", json(["markdown": markdown])))
            #expect(preview["html"] == html)
        }
    }

    @Test("bad input gets a 4xx naming the field and changes nothing; unknown ids are 404")
    func badInput() async throws {
        try await TestApp.with { t in
            let (en, ro) = try languages(t)
            let e = try await EditorClient.make(t, editor: true)
            let number = Int.random(in: 100_000...9_999_999)

            func refused(_ response: TestingHTTPResponse, _ status: HTTPStatus, _ field: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
                #expect(response.status == status, "\(response.body.string)", sourceLocation: sourceLocation)
                #expect(try response.problem().fields.contains(field), "\(response.body.string)", sourceLocation: sourceLocation)
            }
            try refused(try await e.send(.POST, "/issues", json(["number": number, "labels": [ro: "Doar română"]])), .unprocessableEntity, "labels")
            try refused(try await e.send(.POST, "/issues", json(["number": 0, "labels": [en: "Zero"]])), .unprocessableEntity, "number")
            try refused(try await e.send(.POST, "/issues", json(["number": number, "labels": ["xx": "?", en: "X"]])), .unprocessableEntity, "labels")
            #expect(try await e.send(.POST, "/issues", #"{"number": "#).status == .badRequest)
            #expect(try await MagazineIssue.query(on: t.app.db).filter(\.$number == number).count() == 0)

            let issue = try await e.createIssue(number, labels: [en: "Issue \(number)"])
            try refused(try await e.send(.POST, "/issues", json(["number": number, "labels": [en: "Again"]])), .conflict, "number")
            try refused(try await e.send(.PATCH, "/issues/\(issue.id)", json(["coverId": UUID().idString])), .unprocessableEntity, "coverId")
            try refused(try await e.send(.PATCH, "/issues/\(issue.id)", json(["labels": [en: " "]])), .unprocessableEntity, "labels")
            #expect(try await MagazineIssue.find(UUID(uuidString: issue.id), on: t.app.db)?.labels == [en: "Issue \(number)"])

            // A new article refused whole: no article is left behind.
            try refused(try await e.send(.POST, "/issues/\(issue.id)/articles", json(["completeArticle": false])), .unprocessableEntity, "webURL")
            try refused(try await e.send(.POST, "/issues/\(issue.id)/articles", json(["authors": [UUID().idString]])), .unprocessableEntity, "authors")
            try refused(try await e.send(.POST, "/issues/\(issue.id)/articles", json([
                "texts": [en: ["title": "Fine", "markdown": "x"], ro: ["title": " ", "markdown": "x"]]])), .unprocessableEntity, "texts.\(ro).title")
            try refused(try await e.send(.POST, "/issues/\(issue.id)/articles", json(["texts": ["xx": ["title": "?", "markdown": "?"]]])),
                        .unprocessableEntity, "texts.xx")
            #expect(try await MagazineArticle.query(on: t.app.db).filter(\.$issueID == UUID(uuidString: issue.id)!).count() == 0)

            let article = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/issues/\(issue.id)/articles", json([
                "texts": [ro: ["title": "Lâna", "markdown": "Caldă."]]])), .created)
            let empty = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/issues/\(issue.id)/articles", "{}"), .created)
            #expect(empty.position == 1, "after the last article")
            #expect(try await e.send(.POST, "/articles/\(empty.id)/publish").status == .conflict, "nothing written yet")
            try refused(try await e.send(.PATCH, "/articles/\(article.id)", json([
                "position": -1, "texts": [ro: ["title": "Schimbat", "markdown": "x"]]])), .unprocessableEntity, "position")
            try refused(try await e.send(.PATCH, "/articles/\(article.id)", json(["webURL": "javascript:alert(1)"])), .unprocessableEntity, "webURL")
            let kept = try e.decode(EditorArticleBody.self, try await e.send(.GET, "/articles/\(article.id)"))
            #expect(kept.texts[ro]?.title == "Lâna" && kept.position == 0 && kept.webURL == nil)

            // PDFs are checked by their bytes and their language.
            try refused(try await e.pdf("/issues/\(issue.id)/pdfs/\(en)", Data("not a pdf at all, just text".utf8)), .unprocessableEntity, "pdf")
            let pdf = Data("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n".utf8)
            try refused(try await e.pdf("/issues/\(issue.id)/pdfs/xx", pdf), .unprocessableEntity, "lang")
            let withPDF = try e.decode(EditorIssueBody.self, try await e.pdf("/issues/\(issue.id)/pdfs/\(en)", pdf))
            #expect(withPDF.pdfs[en]?.isEmpty == false)

            try refused(try await e.send(.POST, "/authors", json(["name": " "])), .unprocessableEntity, "name")
            try refused(try await e.send(.POST, "/preview", json(["markdown": String(repeating: "a", count: 500_001)])), .unprocessableEntity, "markdown")

            for path in ["/issues/\(UUID().idString)", "/issues/not-an-id", "/articles/\(UUID().idString)"] {
                #expect(try await e.send(.GET, path).status == .notFound, "\(path)")
            }
            #expect(try await e.send(.POST, "/issues/\(UUID().idString)/publish").status == .notFound)
            #expect(try await e.send(.PATCH, "/authors/\(UUID().idString)", json(["name": "Nobody"])).status == .notFound)
        }
    }

    @Test("a shopper gets 404 on every editor operation and signed out it is 401; nothing changes")
    func outsiders() async throws {
        try await TestApp.with { t in
            let (en, _) = try languages(t)
            let e = try await EditorClient.make(t, editor: true)
            let number = Int.random(in: 100_000...9_999_999)
            let issue = try await e.createIssue(number, labels: [en: "Issue \(number)"])
            let article = try e.decode(EditorArticleBody.self, try await e.send(.POST, "/issues/\(issue.id)/articles", json([
                "texts": [en: ["title": "Kept", "markdown": "Kept."]]])), .created)
            let author = try e.decode([String: AnyDecodable].self, try await e.send(.POST, "/authors", json(["name": "Kept Name"])), .created)
            let authorID = try #require(author["id"]?.string)
            let pdf = Data("%PDF-1.4\n%%EOF\n".utf8)

            let operations: [(HTTPMethod, String, String?)] = [
                (.GET, "/issues", nil),
                (.POST, "/issues", json(["number": number + 1, "labels": [en: "Sneaky"]])),
                (.GET, "/issues/\(issue.id)", nil),
                (.PATCH, "/issues/\(issue.id)", json(["number": number + 2])),
                (.POST, "/issues/\(issue.id)/publish", nil),
                (.POST, "/issues/\(issue.id)/schedule", json(["publishAt": iso(t.clock.now().addingTimeInterval(3600))])),
                (.POST, "/issues/\(issue.id)/unpublish", nil),
                (.PUT, "/issues/\(issue.id)/pdfs/\(en)", nil),
                (.POST, "/issues/\(issue.id)/articles", "{}"),
                (.GET, "/articles/\(article.id)", nil),
                (.PATCH, "/articles/\(article.id)", json(["texts": [en: ["title": "Changed", "markdown": "Changed."]]])),
                (.POST, "/articles/\(article.id)/publish", nil),
                (.POST, "/articles/\(article.id)/unpublish", nil),
                (.POST, "/preview", json(["markdown": "x"])),
                (.GET, "/authors", nil),
                (.POST, "/authors", json(["name": "Sneaky"])),
                (.PATCH, "/authors/\(authorID)", json(["name": "Changed"])),
            ]
            let shopper = try await EditorClient.make(t, editor: false)
            let anonymous = EditorClient(t: t, token: nil)
            for (caller, expected) in [(shopper, HTTPStatus.notFound), (anonymous, .unauthorized)] {
                for (method, path, body) in operations {
                    let response = method == .PUT ? try await caller.pdf(path, pdf) : try await caller.send(method, path, body)
                    #expect(response.status == expected, "\(method) \(path): \(response.body.string)")
                }
            }
            #expect(try await MagazineIssue.find(UUID(uuidString: issue.id), on: t.app.db)?.status == "draft")
            #expect(try await MagazineIssue.find(UUID(uuidString: issue.id), on: t.app.db)?.pdfs.isEmpty == true)
            #expect(try await MagazineIssue.query(on: t.app.db).filter(\.$number >= number).filter(\.$number <= number + 2).count() == 1)
            #expect(try await MagazineArticle.query(on: t.app.db).filter(\.$issueID == UUID(uuidString: issue.id)!).count() == 1)
            let kept = try e.decode(EditorArticleBody.self, try await e.send(.GET, "/articles/\(article.id)"))
            #expect(kept.texts[en]?.title == "Kept" && kept.status == "draft")
            #expect(try await MagazineAuthor.find(UUID(uuidString: authorID), on: t.app.db)?.name == "Kept Name")

            // Admins may edit too.
            let adminSession = try await t.signUp(email: uniqueEmail("admin"))
            let admin = try #require(try await User.find(UUID(uuidString: adminSession.user.id), on: t.app.db))
            admin.isAdmin = true
            try await admin.save(on: t.app.db)
            #expect(try await EditorClient(t: t, token: adminSession.accessToken).send(.GET, "/issues/\(issue.id)").status == .ok)
        }
    }
}
