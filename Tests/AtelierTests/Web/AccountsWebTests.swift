import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: account pages")
struct AccountsWebTests {
    /// Loads a page and returns its session cookie and CSRF token.
    func openForm(_ t: TestApp, _ path: String, cookie: String? = nil) async throws -> (cookie: String, csrf: String, html: String) {
        var headers = [("Accept", "text/html")]
        if let cookie { headers.append(("Cookie", cookie)) }
        let page = try await t.send(.GET, path, headers: headers)
        #expect(page.status == .ok)
        let html = page.body.string
        let marker = #"name="csrfToken" value=""#
        let start = try #require(html.range(of: marker)).upperBound
        let csrf = String(html[start...].prefix { $0 != "\"" })
        let newCookie = page.headers.setCookie?["atelier_session"].map { "atelier_session=\($0.string)" }
        return (newCookie ?? cookie ?? "", csrf, html)
    }

    func post(_ t: TestApp, _ path: String, form: [String: String], cookie: String) async throws -> TestingHTTPResponse {
        let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        var headers = HTTPHeaders()
        headers.contentType = .urlEncodedForm
        headers.add(name: "Cookie", value: cookie)
        headers.add(name: "Accept", value: "text/html")
        return try await t.app.testing().sendRequest(.POST, path, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("sign up through the form, see the settings page, sign out")
    func signUpFlow() async throws {
        try await TestApp.with { t in
            let form = try await openForm(t, "/signup")
            let email = uniqueEmail("web")
            let created = try await post(
                t, "/signup", form: ["displayName": "Web Person", "email": email, "password": "correct horse battery", "csrfToken": form.csrf],
                cookie: form.cookie)
            #expect(created.status == .seeOther)
            let cookie = created.headers.setCookie?["atelier_session"].map { "atelier_session=\($0.string)" } ?? form.cookie
            let settings = try await openForm(t, "/settings", cookie: cookie)
            #expect(settings.html.contains("Web Person"))

            let saved = try await post(
                t, "/settings",
                form: ["displayName": "Web Person", "username": "web.person.\(UUID().uuidString.prefix(4).lowercased())", "about": "Hello",
                       "timeZone": "Europe/Stockholm", "genderPreference": "women", "radiusKm": "10", "locale": "en", "csrfToken": settings.csrf],
                cookie: cookie)
            #expect(saved.status == .seeOther)

            let tooLong = try await post(
                t, "/settings", form: ["about": String(repeating: "x", count: 141), "csrfToken": settings.csrf], cookie: cookie)
            #expect(tooLong.status == .unprocessableEntity)
            #expect(tooLong.body.string.contains(#"id="about-error""#))

            let out = try await post(t, "/signout", form: ["csrfToken": settings.csrf], cookie: cookie)
            #expect(out.status == .seeOther)
            let after = try await t.send(.GET, "/settings", headers: [("Cookie", cookie)])
            #expect(after.status == .seeOther)
        }
    }

    @Test("a form post without the CSRF token is refused and changes nothing")
    func csrf() async throws {
        try await TestApp.with { t in
            let form = try await openForm(t, "/signup")
            let email = uniqueEmail("csrf")
            let response = try await post(
                t, "/signup", form: ["displayName": "X", "email": email, "password": "correct horse battery"], cookie: form.cookie)
            #expect(response.status == .forbidden)
            #expect(try await t.userCount(emails: [email]) == 0)
        }
    }

    @Test("session cookies are HttpOnly and SameSite=Lax")
    func cookieFlags() async throws {
        try await TestApp.with { t in
            let page = try await t.send(.GET, "/signin", headers: [("Accept", "text/html")])
            let header = page.headers.first(name: .setCookie) ?? ""
            #expect(header.contains("HttpOnly"))
            #expect(header.lowercased().contains("samesite=lax"))
        }
    }
}
