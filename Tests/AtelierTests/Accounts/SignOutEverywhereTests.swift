import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Accounts: sign out everywhere")
struct SignOutEverywhereTests {
    func logIn(_ t: TestApp, _ email: String) async throws -> Session {
        let response = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(TestApp.password)"}"#)
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(Session.self)
    }

    @Test("from an app: every app session (access and refresh tokens) and the web sign-in end at once; signed out, it is a 401")
    func fromTheAPI() async throws {
        try await TestApp.with { t in
            let phone = try await t.signUp(name: "Everywhere")
            let email = try #require(phone.user.email)
            let tablet = try await logIn(t, email)
            let browser = try await CatalogWebTests().webSignIn(t, email: email)
            let other = try await t.signUp(name: "Someone else")
            t.clock.advance(by: 1)

            #expect(try await t.send(.POST, "/api/v1/auth/logout-everywhere").status == .unauthorized)
            #expect(try await t.send(.POST, "/api/v1/auth/logout-everywhere", token: phone.accessToken).status == .noContent)
            for token in [phone.accessToken, tablet.accessToken] {
                #expect(try await t.send(.GET, "/api/v1/me", token: token).status == .unauthorized)
            }
            let refresh = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(tablet.refreshToken)"}"#)
            #expect(refresh.status == .unauthorized)
            let settings = try await t.send(.GET, "/settings", headers: [("Accept", "text/html"), ("Cookie", browser)])
            #expect(settings.status == .seeOther || settings.status == .found, "the browser is signed out: \(settings.status)")
            #expect(try await t.send(.GET, "/api/v1/me", token: other.accessToken).status == .ok, "nobody else is touched")
            // Signing in again works.
            let again = try await logIn(t, email)
            #expect(try await t.send(.GET, "/api/v1/me", token: again.accessToken).status == .ok)
        }
    }

    @Test("from the web settings: with the CSRF token every session ends and the browser lands on the sign-in page; without it nothing happens")
    func fromTheWeb() async throws {
        try await TestApp.with { t in
            let forms = AccountsWebTests()
            let phone = try await t.signUp(name: "Web Everywhere")
            let cookie = try await CatalogWebTests().webSignIn(t, email: phone.user.email ?? "")
            let page = try await forms.openForm(t, "/settings", cookie: cookie)
            #expect(page.html.contains(#"id="sign-out-everywhere""#))
            t.clock.advance(by: 1)
            let forged = try await forms.post(t, "/settings/sign-out-everywhere", form: [:], cookie: page.cookie)
            #expect(forged.status == .forbidden)
            #expect(try await t.send(.GET, "/api/v1/me", token: phone.accessToken).status == .ok)

            let done = try await forms.post(t, "/settings/sign-out-everywhere", form: ["csrfToken": page.csrf], cookie: page.cookie)
            #expect(done.status == .seeOther && done.headers.first(name: .location) == "/signin")
            #expect(try await t.send(.GET, "/api/v1/me", token: phone.accessToken).status == .unauthorized)
        }
    }
}
