import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: magazine editor portal")
struct MagazinePortalTests {
    let web = CatalogWebTests()
    let forms = AccountsWebTests()

    /// Signs up a user, makes them an editor when asked, signs in on the web: (cookie, CSRF token).
    func signedIn(_ t: TestApp, editor: Bool) async throws -> (cookie: String, csrf: String) {
        let email = uniqueEmail(editor ? "editor" : "reader")
        let session = try await t.signUp(email: email, name: editor ? "Edna Editor" : "Rita Reader")
        if editor {
            let user = try #require(try await User.find(UUID(uuidString: session.user.id), on: t.app.db))
            user.isEditor = true
            try await user.save(on: t.app.db)
        }
        let cookie = try await web.webSignIn(t, email: email)
        let page = try await forms.openForm(t, "/magazine", cookie: cookie)
        return (page.cookie, page.csrf)
    }

    func location(_ response: TestingHTTPResponse) -> String { response.headers.first(name: .location) ?? "" }

    func flash(_ t: TestApp, _ path: String, cookie: String) async throws -> String {
        try await web.get(t, path, cookie: cookie).body.string
    }

    @Test("only editors (and admins) see the portal: everyone else gets 404 for pages and actions")
    func access() async throws {
        try await TestApp.with { t in
            let number = Int.random(in: 100_000...9_999_999)
            let issue = try await t.editor.createIssue(number: number, labels: ["en": "Issue \(number)"])
            let issuePath = "/portal/magazine/issues/\(issue.id!.uuidString.lowercased())"

            #expect(try await web.get(t, "/portal/magazine").status == .notFound, "signed out")
            let reader = try await signedIn(t, editor: false)
            for path in ["/portal/magazine", "/portal/magazine/authors", issuePath] {
                #expect(try await web.get(t, path, cookie: reader.cookie).status == .notFound, "\(path)")
            }
            let create = try await forms.post(t, "/portal/magazine/issues", form: ["number": "\(number + 1)", "label_en": "X", "csrfToken": reader.csrf], cookie: reader.cookie)
            #expect(create.status == .notFound)
            let publish = try await forms.post(t, "\(issuePath)/publish", form: ["csrfToken": reader.csrf], cookie: reader.cookie)
            #expect(publish.status == .notFound)
            #expect(try await MagazineIssue.find(issue.id, on: t.app.db)?.status == "draft")
            #expect(try await MagazineIssue.query(on: t.app.db).filter(\.$number == number + 1).count() == 0)

            let editor = try await signedIn(t, editor: true)
            let home = try await web.get(t, "/portal/magazine", cookie: editor.cookie)
            #expect(home.status == .ok)
            #expect(home.body.string.contains("Issue \(number)") && home.body.string.contains("draft"), "drafts are listed for editors")
            #expect(try await web.get(t, issuePath, cookie: editor.cookie).status == .ok)
        }
    }

    @Test("an editor creates an issue, writes an article in en and ro, publishes; readers then see it in Romanian")
    func writeAndPublish() async throws {
        try await TestApp.with { t in
            let e = try await signedIn(t, editor: true)
            let number = Int.random(in: 100_000...9_999_999)

            // Bad input changes nothing.
            let noLabel = try await forms.post(t, "/portal/magazine/issues", form: ["number": "\(number)", "label_en": " ", "csrfToken": e.csrf], cookie: e.cookie)
            #expect(noLabel.status == .seeOther && location(noLabel) == "/portal/magazine")
            #expect(try await flash(t, "/portal/magazine", cookie: e.cookie).contains("flash-error"))
            #expect(try await MagazineIssue.query(on: t.app.db).filter(\.$number == number).count() == 0)

            let created = try await forms.post(t, "/portal/magazine/issues", form: [
                "number": "\(number)", "label_en": "Issue \(number)", "label_ro": "Numărul \(number)", "csrfToken": e.csrf], cookie: e.cookie)
            #expect(created.status == .seeOther)
            let issue = try #require(try await MagazineIssue.query(on: t.app.db).filter(\.$number == number).first())
            let issuePath = "/portal/magazine/issues/\(issue.id!.uuidString.lowercased())"
            #expect(location(created) == issuePath)
            #expect(issue.labels == ["en": "Issue \(number)", "ro": "Numărul \(number)"])

            let author = try await forms.post(t, "/portal/magazine/authors", form: [
                "name": "Ioana Marin", "bio_en": "Writes about wool.", "bio_ro": "Scrie despre lână.", "csrfToken": e.csrf], cookie: e.cookie)
            #expect(author.status == .seeOther)
            let ioana = try #require(try await MagazineAuthor.query(on: t.app.db).filter(\.$name == "Ioana Marin").first())
            #expect(ioana.bios["ro"] == "Scrie despre lână.")

            let new = try await forms.post(t, "\(issuePath)/articles", form: ["csrfToken": e.csrf], cookie: e.cookie)
            let articlePath = location(new)
            #expect(articlePath.hasPrefix("/portal/magazine/articles/"))
            let articleID = String(articlePath.dropFirst("/portal/magazine/articles/".count))
            let article = try #require(try await MagazineArticle.find(UUID(uuidString: articleID), on: t.app.db))

            let text: [String: String] = [
                "title_en": "Wool in winter", "summary_en": "Why wool.", "markdown_en": "Wool is **warm**.",
                "title_ro": "Lâna iarna", "summary_ro": "De ce lână.", "markdown_ro": "Lâna este **caldă**.",
                "position": "0", "completeArticle": "on", "author_\(ioana.id!.uuidString.lowercased())": "on", "csrfToken": e.csrf,
            ]
            let saved = try await forms.post(t, articlePath, form: text, cookie: e.cookie)
            #expect(saved.status == .seeOther && location(saved) == articlePath)
            let page = try await web.get(t, articlePath, cookie: e.cookie).body.string
            #expect(page.contains("Article saved.") && page.contains("Lâna iarna") && page.contains("<strong>caldă</strong>"))

            // Not complete in the app without a web address: refused, and the Romanian title stays.
            var bad = text
            bad["completeArticle"] = nil
            bad["title_ro"] = "Schimbat"
            _ = try await forms.post(t, articlePath, form: bad, cookie: e.cookie)
            #expect(try await flash(t, articlePath, cookie: e.cookie).contains("webURL"))
            let ro = try #require(try await MagazineArticleText.query(on: t.app.db).filter(\.$articleID == article.id!).filter(\.$lang == "ro").first())
            #expect(ro.title == "Lâna iarna")
            #expect(try await MagazineArticle.find(article.id, on: t.app.db)?.completeArticle == true)

            // Drafts write nothing to the changes feed; publishing does.
            #expect(try await MagazineChange.query(on: t.app.db).filter(\.$entityID == article.id!).count() == 0)
            #expect(try await forms.post(t, "\(articlePath)/publish", form: ["csrfToken": e.csrf], cookie: e.cookie).status == .seeOther)
            #expect(try await web.get(t, "/magazine/articles/\(articleID)?lang=ro").status == .notFound, "the issue is still a draft")
            #expect(try await forms.post(t, "\(issuePath)/publish", form: ["csrfToken": e.csrf], cookie: e.cookie).status == .seeOther)
            #expect(try await MagazineIssue.find(issue.id, on: t.app.db)?.status == "published")
            #expect(try await MagazineChange.query(on: t.app.db).filter(\.$entityID == article.id!).count() == 1)

            let reader = try await web.get(t, "/magazine/articles/\(articleID)?lang=ro")
            #expect(reader.status == .ok)
            #expect(reader.body.string.contains("Lâna iarna") && reader.body.string.contains("<strong>caldă</strong>"))
            #expect(reader.body.string.contains("Ioana Marin"))
            #expect(try await web.get(t, "/magazine/articles/\(articleID)?lang=en").body.string.contains("Wool in winter"))

            // Scheduling in the past is refused; unpublishing takes the issue back to draft.
            _ = try await forms.post(t, "\(issuePath)/schedule", form: ["publishAt": "2001-01-01T10:00", "csrfToken": e.csrf], cookie: e.cookie)
            #expect(try await MagazineIssue.find(issue.id, on: t.app.db)?.status == "published")
            #expect(try await forms.post(t, "\(issuePath)/unpublish", form: ["csrfToken": e.csrf], cookie: e.cookie).status == .seeOther)
            #expect(try await web.get(t, "/magazine/articles/\(articleID)?lang=ro").status == .notFound)
            _ = try await forms.post(t, "\(issuePath)/schedule", form: ["publishAt": "2999-01-01T10:00", "csrfToken": e.csrf], cookie: e.cookie)
            let scheduled = try #require(try await MagazineIssue.find(issue.id, on: t.app.db))
            #expect(scheduled.status == "scheduled" && scheduled.publishAt != nil)
        }
    }

    @Test("the preview endpoint renders Markdown with the reader's sanitiser: no script survives")
    func previewEscapes() async throws {
        try await TestApp.with { t in
            let e = try await signedIn(t, editor: true)
            func preview(_ markdown: String, csrf: String?, cookie: String) async throws -> TestingHTTPResponse {
                var headers = HTTPHeaders()
                headers.contentType = .json
                headers.add(name: "Cookie", value: cookie)
                headers.add(name: "Accept", value: "application/json")
                if let csrf { headers.add(name: "X-CSRF-Token", value: csrf) }
                let body = try JSONEncoder().encode(["markdown": markdown])
                return try await t.app.testing().sendRequest(.POST, "/portal/magazine/preview", headers: headers, body: ByteBuffer(data: body))
            }
            let response = try await preview("<script>alert(1)</script>\n\nHello **world** [x](javascript:alert(1))", csrf: e.csrf, cookie: e.cookie)
            #expect(response.status == .ok)
            let html = try response.content.decode([String: String].self)["html"] ?? ""
            #expect(!html.contains("<script"), "\(html)")
            #expect(html.contains("&lt;script&gt;"))
            #expect(html.contains("<strong>world</strong>"))
            #expect(!html.contains("javascript:") || !html.contains("href=\"javascript"))
            #expect(try await preview("x", csrf: nil, cookie: e.cookie).status == .forbidden, "CSRF is checked")
            let reader = try await signedIn(t, editor: false)
            #expect(try await preview("x", csrf: reader.csrf, cookie: reader.cookie).status == .notFound)
        }
    }
}
