import Fluent
import Foundation
import FakeProviders
import JWTKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Sign in with a provider")
struct SocialSignInTests {
    func withProvider(_ body: (TestApp, FakeProvider) async throws -> Void) async throws {
        let provider = await FakeProvider.make()
        try await TestApp.with(adjust: {
            $0.google.clientIDs = [FakeProvider.clientID]
            $0.google.jwks = provider.jwks
        }) { t in try await body(t, provider) }
    }

    func signIn(_ t: TestApp, _ token: String, nonce: String? = nil) async throws -> TestingHTTPResponse {
        let nonceField = nonce.map { #","nonce":"\#($0)""# } ?? ""
        return try await t.send(.POST, "/api/v1/auth/social", json: #"{"provider":"google","idToken":"\#(token)"\#(nonceField)}"#)
    }

    @Test("first sign-in creates the account (201); the next one signs into it (200)")
    func createThenSignIn() async throws {
        try await withProvider { t, provider in
            let subject = UUID().uuidString
            let email = uniqueEmail("social")
            let token = try await provider.token(subject: subject, email: email, verified: true, now: t.clock.now())
            let first = try await signIn(t, token)
            #expect(first.status == .created, "\(first.body.string)")
            let second = try await signIn(t, token)
            #expect(second.status == .ok)
            #expect(try first.content.decode(Session.self).user.id == second.content.decode(Session.self).user.id)
        }
    }

    @Test("a new account gets the provider's picture as its avatar; a picture that cannot be fetched leaves the initial, and the sign-in works")
    func providerPicture() async throws {
        let pictures = try await Application.make(.testing)
        pictures.http.server.configuration.hostname = "127.0.0.1"
        pictures.http.server.configuration.port = 0
        let png = try TestImages.png(width: 120, height: 120)
        pictures.get("me.png") { _ in Response(status: .ok, headers: ["Content-Type": "image/png"], body: .init(data: png)) }
        pictures.get("text") { _ in Response(status: .ok, headers: ["Content-Type": "image/png"], body: .init(string: "not a picture")) }
        try await pictures.server.start()
        let port = try #require(pictures.http.server.shared.localAddress?.port)
        do {
            try await withProvider { t, provider in
                func signUp(_ path: String) async throws -> Session {
                    let token = try await provider.token(
                        subject: UUID().uuidString, email: uniqueEmail("pic"), verified: true, now: t.clock.now(),
                        picture: "http://127.0.0.1:\(port)/\(path)")
                    let answer = try await signIn(t, token)
                    #expect(answer.status == .created, "\(answer.body.string)")
                    return try answer.content.decode(Session.self)
                }
                let pictured = try await signUp("me.png")
                let history = try await t.send(.GET, "/api/v1/me/avatar", token: pictured.accessToken).content.decode(AvatarHistoryBody.self)
                #expect(history.current?.width == 120 && history.history.count == 1)
                for broken in ["text", "missing"] {
                    let plain = try await signUp(broken)
                    #expect(try await t.avatarMediaID(plain) == nil)
                    #expect(try await t.mediaCount(uploader: plain.user.id) == 0)
                }
            }
        } catch {
            await pictures.server.shutdown()
            try await pictures.asyncShutdown()
            throw error
        }
        await pictures.server.shutdown()
        try await pictures.asyncShutdown()
    }

    @Test("an existing email links only when the provider verified it")
    func linking() async throws {
        try await withProvider { t, provider in
            let email = uniqueEmail("link")
            let existing = try await t.signUp(email: email)
            let unverified = try await provider.token(subject: UUID().uuidString, email: email, verified: false, now: t.clock.now())
            #expect(try await signIn(t, unverified).status == .conflict)
            let verified = try await provider.token(subject: UUID().uuidString, email: email, verified: true, now: t.clock.now())
            let linked = try await signIn(t, verified)
            #expect(linked.status == .ok)
            #expect(try linked.content.decode(Session.self).user.id == existing.user.id)
        }
    }

    @Test("wrong audience, wrong issuer, expired, forged signature or wrong nonce are refused")
    func refusals() async throws {
        try await withProvider { t, provider in
            let now = t.clock.now()
            let s1 = UUID().uuidString
            let wrongAudience = try await provider.token(subject: s1, email: nil, verified: nil, now: now, audience: "someone.else")
            #expect(try await signIn(t, wrongAudience).status == .unauthorized)
            let wrongIssuer = try await provider.token(subject: s1, email: nil, verified: nil, now: now, issuer: "https://evil.example")
            #expect(try await signIn(t, wrongIssuer).status == .unauthorized)
            let expired = try await provider.token(subject: s1, email: nil, verified: nil, now: now.addingTimeInterval(-3600))
            #expect(try await signIn(t, expired).status == .unauthorized)
            let other = await FakeProvider.make()
            let forged = try await other.token(subject: s1, email: nil, verified: nil, now: now)
            #expect(try await signIn(t, forged).status == .unauthorized)
            let withNonce = try await provider.token(subject: s1, email: nil, verified: nil, now: now, nonce: "abc")
            #expect(try await signIn(t, withNonce, nonce: "xyz").status == .unauthorized)
            #expect(try await signIn(t, withNonce, nonce: "abc").status == .created)
        }
    }

    @Test("a provider that is not configured is a 422 naming the provider")
    func notConfigured() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.POST, "/api/v1/auth/social", json: #"{"provider":"apple","idToken":"x.y.z"}"#)
            #expect(response.status == .unprocessableEntity)
            #expect(try response.problem().fields == ["provider"])
        }
    }
}
