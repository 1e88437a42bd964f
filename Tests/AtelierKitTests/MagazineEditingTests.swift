import AtelierKit
import Foundation
import Testing

@testable import Atelier

@Suite("MagazineEditing: the editor desk over the API")
struct MagazineEditingTests {
    /// A signed-in session; its account an editor when asked.
    func session(_ server: LiveServer, editor: Bool) async throws -> AtelierSession {
        let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
        let me = try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: editor ? "Edna" : "Sam")
        if editor {
            let user = try #require(try await User.find(UUID(uuidString: me.id), on: server.app.db))
            user.isEditor = true
            try await user.save(on: server.app.db)
        }
        return session
    }

    @Test("an editor writes an issue with an article in two languages and publishes it; readers get it; a shopper gets notFound")
    func writeAndPublish() async throws {
        try await LiveServer.with { server in
            let desk = try await session(server, editor: true).magazineEditing
            let author = try await desk.createAuthor(name: "Ioana Marin", bios: ["en": "Writes about wool.", "ro": "Scrie despre lână."])
            let number = Int.random(in: 100_000...9_999_999)
            let issue = try await desk.createIssue(number: number, labels: ["en": "Issue \(number)", "ro": "Numărul \(number)"])
            #expect(issue.status == .draft)
            let article = try await desk.createArticle(in: issue.id, .init(authors: [author.id], texts: .init(additionalProperties: [
                "en": .init(title: "Wool in winter", markdown: "Wool is **warm**. <script>alert(1)</script>"),
                "ro": .init(title: "Lâna iarna", markdown: "Lâna este **caldă**."),
            ])))
            let html = article.texts.additionalProperties["en"]?.html ?? ""
            #expect(html.contains("<strong>warm</strong>") && !html.contains("<script"))
            #expect(try await desk.publishArticle(article.id).status == .published)
            do {
                _ = try await desk.schedule(issue.id, at: server.clock.now().addingTimeInterval(-60))
                Issue.record("scheduling in the past was accepted")
            } catch MagazineEditingError.invalid(let problem) {
                #expect(problem.errors?.map(\.field) == ["publishAt"])
            }
            #expect(try await desk.publish(issue.id).status == .published)
            // The live server's clock is the wall clock's time, stopped: a stored publish time may
            // round up past it (SQLite keeps microseconds), so time moves on before reading.
            server.clock.advance(by: 1)

            let reader = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore()).client
            let ro = try await reader.getMagazineArticle(path: .init(articleId: article.id), query: .init(lang: "ro")).ok.body.json
            #expect(ro.title == "Lâna iarna" && ro.language == "ro" && ro.authors.map(\.name) == ["Ioana Marin"])
            let issues = try await reader.listMagazineIssues(query: .init(lang: "en")).ok.body.json.items
            #expect(issues.first { $0.id == issue.id }?.label == "Issue \(number)")

            let shopper = try await session(server, editor: false).magazineEditing
            await #expect(throws: MagazineEditingError.self) { _ = try await shopper.issues() }
            do {
                _ = try await shopper.unpublish(issue.id)
                Issue.record("a shopper unpublished an issue")
            } catch MagazineEditingError.notFound {
                // As for an issue that does not exist.
            }
            #expect(try await desk.issue(issue.id).status == .published)
        }
    }
}
