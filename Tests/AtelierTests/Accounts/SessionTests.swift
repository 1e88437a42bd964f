import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Tokens and sessions")
struct SessionTests {
    @Test("sign-in takes the email or the username (any case, with or without @); a wrong one is 401 and signs nobody in")
    func signInWithUsername() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            let name = session.user.username
            for login in [session.user.email!, name, "@\(name)", name.uppercased(), " \(name) "] {
                let response = try await t.send(
                    .POST, "/api/v1/auth/login", json: #"{"email":"\#(login)","password":"\#(TestApp.password)"}"#)
                #expect(response.status == .ok, "\(login): \(response.body.string)")
                #expect(try response.content.decode(Session.self).user.id == session.user.id)
            }
            let wrong = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(name)x","password":"\#(TestApp.password)"}"#)
            #expect(wrong.status == .unauthorized)
            let badPassword = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(name)","password":"not the password"}"#)
            #expect(badPassword.status == .unauthorized)
            let empty = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":" ","password":"x"}"#)
            #expect(empty.status == .unprocessableEntity)
            #expect(try empty.problem().fields == ["email"])
        }
    }

    @Test("refresh rotates; presenting the old refresh token again revokes the whole family")
    func refreshReuse() async throws {
        try await TestApp.with { t in
            let first = try await t.signUp()
            let refreshed = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(first.refreshToken)"}"#)
            #expect(refreshed.status == .ok)
            let second = try refreshed.content.decode(Session.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(try await t.send(.GET, "/api/v1/me", token: second.accessToken).status == .ok)

            let reuse = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(first.refreshToken)"}"#)
            #expect(reuse.status == .unauthorized)
            #expect(try await t.send(.GET, "/api/v1/me", token: second.accessToken).status == .unauthorized)
            let again = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(second.refreshToken)"}"#)
            #expect(again.status == .unauthorized)
        }
    }

    @Test("access tokens expire after 15 minutes; the refresh token still works")
    func accessExpiry() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            t.clock.advance(by: 15 * 60 + 1)
            #expect(try await t.send(.GET, "/api/v1/me", token: session.accessToken).status == .unauthorized)
            let refreshed = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(session.refreshToken)"}"#)
            #expect(refreshed.status == .ok)
        }
    }

    @Test("refresh tokens expire after 30 days")
    func refreshExpiry() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            t.clock.advance(by: 31 * 24 * 3600)
            let refreshed = try await t.send(.POST, "/api/v1/auth/refresh", json: #"{"refreshToken":"\#(session.refreshToken)"}"#)
            #expect(refreshed.status == .unauthorized)
        }
    }

    @Test("sign-out revokes the session and unregisters the device")
    func logOut() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            let token = String(repeating: session.user.id.replacingOccurrences(of: "-", with: "").lowercased(), count: 2)
            let put = try await t.send(.PUT, "/api/v1/me/devices/\(token)", json: #"{"platform":"apns"}"#, token: session.accessToken)
            #expect(put.status == .ok)
            let out = try await t.send(
                .POST, "/api/v1/auth/logout",
                json: #"{"refreshToken":"\#(session.refreshToken)","deviceToken":"\#(token)"}"#)
            #expect(out.status == .noContent)
            #expect(try await t.send(.GET, "/api/v1/me", token: session.accessToken).status == .unauthorized)
            #expect(try await Device.query(on: t.app.db).filter(\.$token == token).count() == 0)
        }
    }

    @Test("a forged or garbled token is 401")
    func forgedToken() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            let forged = String(session.accessToken.dropLast(3)) + "abc"
            #expect(try await t.send(.GET, "/api/v1/me", token: forged).status == .unauthorized)
            #expect(try await t.send(.GET, "/api/v1/me", token: "nonsense").status == .unauthorized)
        }
    }
}
