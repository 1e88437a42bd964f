import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct MagazineRatingBody: Decodable {
    var average: Double?
    var count: Int
    var mine: Int?
}

@Suite("Magazine: bookmarks, ratings, comments and new-issue notices")
struct MagazineReaderTests {
    @Test("bookmarks list visible articles; ratings average 1–5 stars; bad stars are a 422; comments are deleted by their author or an editor")
    func readerActions() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Reader Ana"), ben = try await t.signUp(name: "Reader Ben")
            let author = try await t.editor.createAuthor(name: "Ioana Marin", bios: ["en": "Editor."])
            let (_, articles) = try await t.publishedIssue(1, titles: [("Wool", nil), ("Hems", nil)], by: author)
            let wool = articles[0].id!.uuidString.lowercased()

            #expect(try await t.send(.PUT, "/api/v1/magazine/articles/\(wool)/bookmark", token: ana.accessToken).status == .noContent)
            #expect(try await t.send(.PUT, "/api/v1/magazine/articles/\(wool)/bookmark", token: ana.accessToken).status == .noContent)
            var bookmarks = try await t.send(.GET, "/api/v1/me/magazine/bookmarks", token: ana.accessToken).content.decode([String: [MagazineArticleBody]].self)
            #expect(bookmarks["items"]?.map(\.id) == [wool])
            // Unpublished articles drop out of bookmarks and cannot be bookmarked.
            try await t.editor.setPublished(false, articles[0])
            bookmarks = try await t.send(.GET, "/api/v1/me/magazine/bookmarks", token: ana.accessToken).content.decode([String: [MagazineArticleBody]].self)
            #expect(bookmarks["items"]?.isEmpty == true)
            #expect(try await t.send(.PUT, "/api/v1/magazine/articles/\(wool)/bookmark", token: ben.accessToken).status == .notFound)

            let hems = articles[1].id!.uuidString.lowercased()
            _ = try await t.send(.PUT, "/api/v1/magazine/articles/\(hems)/rating", json: #"{"stars":5}"#, token: ana.accessToken)
            let rated = try await t.send(.PUT, "/api/v1/magazine/articles/\(hems)/rating", json: #"{"stars":2}"#, token: ben.accessToken)
            let summary = try rated.content.decode(MagazineRatingBody.self)
            #expect(summary.count == 2 && summary.average == 3.5 && summary.mine == 2)
            let bad = try await t.send(.PUT, "/api/v1/magazine/articles/\(hems)/rating", json: #"{"stars":6}"#, token: ben.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(try await t.send(.GET, "/api/v1/magazine/articles/\(hems)/rating", token: ben.accessToken).content.decode(MagazineRatingBody.self).mine == 2)
            // The article itself carries the average, for anyone.
            let article = try await t.send(.GET, "/api/v1/magazine/articles/\(hems)").body.string
            #expect(article.contains(#""rating":{"average":3.5,"count":2}"#), "\(article)")

            let comment = try await t.send(.POST, "/api/v1/magazine/articles/\(hems)/comments", json: #"{"body":"Useful!"}"#, token: ana.accessToken)
            #expect(comment.status == .created)
            let commentID = try comment.content.decode(CommentBody.self).id
            #expect(try await t.send(.DELETE, "/api/v1/magazine/articles/\(hems)/comments/\(commentID)", token: ben.accessToken).status == .forbidden)
            try await t.makeEditor(ben)
            #expect(try await t.send(.DELETE, "/api/v1/magazine/articles/\(hems)/comments/\(commentID)", token: ben.accessToken).status == .noContent)
            // A reported comment that an admin hides shows to its author only.
            let rude = try await t.send(.POST, "/api/v1/magazine/articles/\(hems)/comments", json: #"{"body":"Rude words"}"#, token: ana.accessToken)
            let rudeID = try rude.content.decode(CommentBody.self).id
            let report = try await t.send(.POST, "/api/v1/reports", json: #"{"subjectType":"magazineComment","subjectId":"\#(rudeID)","reason":"Rude"}"#, token: ben.accessToken)
            #expect(report.status == .created, "\(report.body.string)")
            let admin = try await t.signUp(name: "Admin Ada")
            try await t.makeAdmin(admin)
            let reportID = try JSONSerialization.jsonObject(with: Data(report.body.string.utf8)) as? [String: Any]
            let resolved = try await t.send(.POST, "/api/v1/admin/reports/\(reportID?["id"] as? String ?? "")/resolve", json: #"{"action":"hide"}"#, token: admin.accessToken)
            #expect(resolved.status == .ok, "\(resolved.body.string)")
            let benSees = try await t.send(.GET, "/api/v1/magazine/articles/\(hems)/comments", token: ben.accessToken).body.string
            let anaSees = try await t.send(.GET, "/api/v1/magazine/articles/\(hems)/comments", token: ana.accessToken).body.string
            #expect(!benSees.contains("Rude words") && anaSees.contains("Rude words"))
            let empty = try await t.send(.POST, "/api/v1/magazine/articles/\(hems)/comments", json: #"{"body":"  "}"#, token: ana.accessToken)
            #expect(empty.status == .unprocessableEntity)
        }
    }

    @Test("readers who opted in get an inbox entry when an issue comes out, scheduled or at once, and only once")
    func newIssueNotice() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Reader Ana"), ben = try await t.signUp(name: "Reader Ben")
            #expect(try await t.send(.PUT, "/api/v1/me/magazine/subscription", token: ana.accessToken).status == .ok)
            let author = try await t.editor.createAuthor(name: "Erik Sand", bios: ["en": "Tailor."])
            _ = try await t.publishedIssue(1, titles: [("Hems", nil)], by: author)
            let later = try await t.editor.createIssue(number: 2, labels: ["en": "Issue 2"])
            try await t.editor.publish(later, at: t.clock.now().addingTimeInterval(600))
            #expect(try await t.notifications(ana).items.filter { $0.kind == "magazineIssue" }.map(\.text) == ["New in the magazine: Issue 1"])
            t.clock.advance(by: 700)
            #expect(try await t.editor.publishDue() == 1)
            #expect(try await t.editor.publishDue() == 0)
            let fresh = try await t.refreshed(ana)
            #expect(try await t.notifications(fresh).items.filter { $0.kind == "magazineIssue" }.count == 2)
            #expect(try await t.notifications(try await t.refreshed(ben)).items.isEmpty)
        }
    }
}

extension TestApp {
    func makeEditor(_ session: Session) async throws {
        let user = try #require(try await User.find(UUID(uuidString: session.user.id), on: app.db))
        user.isEditor = true
        try await user.save(on: app.db)
    }
}
