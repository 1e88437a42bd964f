import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Site: privacy policy, terms and the contact form")
struct SitePagesTests {
    struct SitePageBody: Decodable { var slug: String; var title: String; var html: String; var markdown: String }

    @Test("both pages exist from the first start, for anyone, on the API and the web; footer, settings and sign-up link them")
    func pagesForEveryone() async throws {
        try await TestApp.with { t in
            for slug in ["privacy", "terms"] {
                let answer = try await t.send(.GET, "/api/v1/site-pages/\(slug)")
                #expect(answer.status == .ok, "\(answer.body.string)")
                let page = try answer.content.decode(SitePageBody.self)
                #expect(page.slug == slug && !page.html.isEmpty && page.html.contains("/contact"))
                let web = try await t.send(.GET, "/\(slug)", headers: [("Accept", "text/html")])
                #expect(web.status == .ok && web.body.string.contains("data-page=\"\(slug)\""))
            }
            #expect(try await t.send(.GET, "/api/v1/site-pages/cookies").status.code / 100 == 4)
            let home = try await t.send(.GET, "/", headers: [("Accept", "text/html")]).body.string
            #expect(home.contains("id=\"footer-privacy\"") && home.contains("id=\"footer-terms\"") && home.contains("id=\"footer-contact\""))
            let signup = try await t.send(.GET, "/signup", headers: [("Accept", "text/html")]).body.string
            #expect(signup.contains("id=\"signup-terms\"") && signup.contains("href=\"/privacy\""))
            let email = uniqueEmail("settings")
            _ = try await t.signUp(email: email)
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            #expect(try await CatalogWebTests().get(t, "/settings", cookie: cookie).body.string.contains("id=\"settings-legal\""))
        }
    }

    @Test(
        "admins change a page; bad input is a 422 naming the field and changes nothing; others may not",
        arguments: [
            (#"{"title":"","body":"Text"}"#, "title"), (#"{"title":"\#(String(repeating: "t", count: 121))","body":"Text"}"#, "title"),
            (#"{"title":"Terms","body":"   "}"#, "body"),
        ])
    func adminEdits(json: String, field: String) async throws {
        try await TestApp.with { t in
            let admin = try await t.signUp()
            try await t.makeAdmin(admin)
            let shopper = try await t.signUp()
            let before = try await t.send(.GET, "/api/v1/site-pages/terms").content.decode(SitePageBody.self)
            #expect(try await t.send(.PUT, "/api/v1/admin/site-pages/terms", json: #"{"title":"Mine","body":"Mine"}"#, token: shopper.accessToken).status == .forbidden)
            let bad = try await t.send(.PUT, "/api/v1/admin/site-pages/terms", json: json, token: admin.accessToken)
            #expect(bad.status == .unprocessableEntity, "\(bad.body.string)")
            #expect(try bad.problem().fields == [field])
            #expect(try await t.send(.GET, "/api/v1/site-pages/terms").content.decode(SitePageBody.self).markdown == before.markdown)

            let saved = try await t.send(
                .PUT, "/api/v1/admin/site-pages/terms", json: ###"{"title":"House rules","body":"## Be kind\n<script>alert(1)</script>"}"###,
                token: admin.accessToken)
            #expect(saved.status == .ok, "\(saved.body.string)")
            let page = try await t.send(.GET, "/terms", headers: [("Accept", "text/html")]).body.string
            #expect(page.contains("House rules") && page.contains("<h2>Be kind</h2>") && !page.contains("<script>alert"))
        }
    }

    @Test("the contact form reaches every admin's inbox, not anyone else's; bad input names the field; 20 in a minute are limited")
    func feedback() async throws {
        try await TestApp.with { t in
            let admins = [try await t.signUp(), try await t.signUp()]
            for admin in admins { try await t.makeAdmin(admin) }
            let shopper = try await t.signUp()
            let refusals: [(String, String?, String)] = [
                (#"{"subject":"Hi","message":"Hello"}"#, nil, "email"),
                (#"{"email":"not an address","subject":"Hi","message":"Hello"}"#, nil, "email"),
                (#"{"subject":"","message":"Hello"}"#, shopper.accessToken, "subject"),
                (#"{"subject":"Hi","message":"\#(String(repeating: "m", count: 5001))"}"#, shopper.accessToken, "message"),
            ]
            for (json, token, field) in refusals {
                let answer = try await t.send(.POST, "/api/v1/feedback", json: json, token: token)
                #expect(answer.status == .unprocessableEntity, "\(json): \(answer.body.string)")
                #expect(try answer.problem().fields == [field])
            }
            #expect(try await FeedbackMessage.query(on: t.app.db).count() == 0)

            var statuses: [UInt] = []
            for index in 0..<20 {
                let answer = try await t.send(.POST, "/api/v1/feedback", json: #"{"subject":"Idea \#(index)","message":"More linen, please."}"#, token: shopper.accessToken)
                statuses.append(answer.status.code)
            }
            #expect(statuses.prefix(5).allSatisfy { $0 == 202 } && statuses.dropFirst(5).allSatisfy { $0 == 429 }, "\(statuses)")
            #expect(try await FeedbackMessage.query(on: t.app.db).count() == 5)
            for admin in admins {
                let inbox = try await t.notifications(admin)
                #expect(inbox.items.filter { $0.kind == "feedback" }.count == 5)
                #expect(inbox.items.first?.text.contains("More linen, please.") == true)
            }
            #expect(try await t.notifications(shopper).items.allSatisfy { $0.kind != "feedback" })
        }
    }

    @Test("web: the contact form needs its CSRF token; signed out it asks for an address; sent, it thanks")
    func contactForm() async throws {
        try await TestApp.with { t in
            let admin = try await t.signUp()
            try await t.makeAdmin(admin)
            let forms = AccountsWebTests()
            let page = try await forms.openForm(t, "/contact")
            let noToken = try await forms.post(t, "/contact", form: ["email": "a@example.com", "subject": "Hi", "message": "Hello"], cookie: page.cookie)
            #expect(noToken.status == .forbidden)
            let noEmail = try await forms.post(t, "/contact", form: ["subject": "Hi", "message": "Hello", "csrfToken": page.csrf], cookie: page.cookie)
            #expect(noEmail.status == .unprocessableEntity && noEmail.body.string.contains("contact-email-error"))
            let sent = try await forms.post(
                t, "/contact", form: ["email": "visitor@example.com", "subject": "Hi", "message": "Hello", "csrfToken": page.csrf], cookie: page.cookie)
            #expect(sent.status == .seeOther)
            #expect(try await FeedbackMessage.query(on: t.app.db).filter(\.$email == "visitor@example.com").count() == 1)
            #expect(try await t.notifications(admin).items.contains { $0.kind == "feedback" && $0.text.contains("visitor@example.com") })
        }
    }
}
