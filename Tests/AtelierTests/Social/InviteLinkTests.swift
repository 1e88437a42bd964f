import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct InviteLinkBody: Decodable {
    var url: String
    var token: String
    var expiresAt: String
}

@Suite("Social: invite links")
struct InviteLinkTests {
    private func connected(_ t: TestApp, _ a: String, _ b: String) async throws -> Bool {
        try await SocialGraph(db: t.app.db).areConnected(UUID(uuidString: a)!, UUID(uuidString: b)!)
    }

    @Test("signing up through a link connects the two, once: the same link again is a 422 naming inviteToken and makes no account")
    func signUpThroughLink() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana Inviter")
            let made = try await t.send(.POST, "/api/v1/me/invite-links", token: ana.accessToken)
            #expect(made.status == .created, "\(made.body.string)")
            let link = try made.content.decode(InviteLinkBody.self)
            #expect(link.url.hasSuffix("/invite/\(link.token)"))
            let preview = try await t.send(.GET, "/api/v1/invite-links/\(link.token)")
            #expect(preview.status == .ok && preview.body.string.contains("Ana Inviter"))

            func signUp(_ email: String) async throws -> TestingHTTPResponse {
                try await t.send(.POST, "/api/v1/auth/signup", json: #"{"email":"\#(email)","password":"\#(TestApp.password)","displayName":"New Person","inviteToken":"\#(link.token)"}"#)
            }
            let first = uniqueEmail("invited")
            let joined = try await signUp(first)
            #expect(joined.status == .created, "\(joined.body.string)")
            let ben = try joined.content.decode(Session.self)
            #expect(try await connected(t, ana.user.id, ben.user.id))
            #expect(!(try await SocialGraph(db: t.app.db).areFriends(UUID(uuidString: ana.user.id)!, UUID(uuidString: ben.user.id)!)))

            let second = uniqueEmail("second")
            let again = try await signUp(second)
            #expect(again.status == .unprocessableEntity, "\(again.body.string)")
            #expect(try again.problem().fields == ["inviteToken"])
            #expect(try await t.userCount(emails: [second]) == 0)
            #expect(try await t.send(.GET, "/api/v1/invite-links/\(link.token)").status == .conflict)
            // A made-up token is refused the same way.
            let bogus = try await t.send(.POST, "/api/v1/auth/signup", json: #"{"email":"\#(uniqueEmail())","password":"\#(TestApp.password)","displayName":"X","inviteToken":"nope"}"#)
            #expect(bogus.status == .unprocessableEntity)
            #expect(try bogus.problem().fields == ["inviteToken"])
        }
    }

    @Test("accepting signed in: connects; one's own link, a used one, an expired one and an unknown one are refused")
    func acceptSignedIn() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            let ben = try await t.signUp()
            let cara = try await t.signUp()
            let link = try await t.send(.POST, "/api/v1/me/invite-links", token: ana.accessToken).content.decode(InviteLinkBody.self)
            let own = try await t.send(.POST, "/api/v1/invite-links/\(link.token)/accept", token: ana.accessToken)
            #expect(own.status == .unprocessableEntity)
            let accepted = try await t.send(.POST, "/api/v1/invite-links/\(link.token)/accept", token: ben.accessToken)
            #expect(accepted.status == .ok, "\(accepted.body.string)")
            #expect(try accepted.content.decode(UserSummaryBody.self).relationship == "connected")
            let used = try await t.send(.POST, "/api/v1/invite-links/\(link.token)/accept", token: cara.accessToken)
            #expect(used.status == .conflict)
            #expect(try used.problem().fields == ["token"])
            #expect(!(try await connected(t, ana.user.id, cara.user.id)))
            #expect(try await t.send(.POST, "/api/v1/invite-links/unknown-token/accept", token: cara.accessToken).status == .notFound)

            let old = try await t.send(.POST, "/api/v1/me/invite-links", token: ana.accessToken).content.decode(InviteLinkBody.self)
            t.clock.advance(by: InviteLinkService.lifetime + 1)
            let fresh = try await t.refreshed(cara)
            #expect(try await t.send(.POST, "/api/v1/invite-links/\(old.token)/accept", token: fresh.accessToken).status == .conflict)
            #expect(!(try await connected(t, ana.user.id, cara.user.id)))
        }
    }

    @Test("making links is limited to 20 a day per person")
    func rateLimited() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp()
            for _ in 0..<20 { #expect(try await t.send(.POST, "/api/v1/me/invite-links", token: ana.accessToken).status == .created) }
            let limited = try await t.send(.POST, "/api/v1/me/invite-links", token: ana.accessToken)
            #expect(limited.status == .tooManyRequests && limited.headers.first(name: "Retry-After") != nil)
        }
    }

    @Test("web: the link's page signs a new person up connected; signed in, it offers to connect; used, it says so")
    func web() async throws {
        try await TestApp.with { t in
            let anaEmail = uniqueEmail("ana")
            let ana = try await t.signUp(email: anaEmail, name: "Ana Web")
            let web = CatalogWebTests()
            let forms = AccountsWebTests()
            let anaCookie = try await web.webSignIn(t, email: anaEmail)
            let friends = try await forms.openForm(t, "/friends", cookie: anaCookie)
            let made = try await forms.post(t, "/friends/invite-link", form: ["csrfToken": friends.csrf], cookie: anaCookie)
            #expect(made.status == .ok)
            let url = try #require(made.body.string.firstMatch(of: /value="([^"]*\/invite\/[^"]+)"/).map { String($0.1) })
            let path = String(url.dropFirst(t.app.atelier.config.publicBaseURL.count))

            let page = try await forms.openForm(t, path)
            #expect(page.html.contains("Ana Web invited you") && page.html.contains("name=\"inviteToken\""))
            let token = String(path.split(separator: "/").last!)
            let email = uniqueEmail("newcomer")
            let signedUp = try await forms.post(t, "/signup", form: [
                "displayName": "Newcomer", "email": email, "password": TestApp.password, "inviteToken": token, "csrfToken": page.csrf,
            ], cookie: page.cookie)
            #expect(signedUp.status == .seeOther)
            let newcomer = try #require(try await User.query(on: t.app.db).filter(\.$email == email).first())
            #expect(try await connected(t, ana.user.id, newcomer.id!.idString))

            let again = try await web.get(t, path)
            #expect(again.body.string.contains("has been used already"))
            let other = try await web.get(t, "/invite/not-a-token")
            #expect(other.status == .notFound)
        }
    }
}
