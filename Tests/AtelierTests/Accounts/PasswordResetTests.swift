import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Password reset and email verification")
struct PasswordResetTests {
    @Test("a reset link's token sets a new password once, signs out old sessions")
    func resetFlow() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("reset")
            let session = try await t.signUp(email: email)
            #expect(try await t.send(.POST, "/api/v1/auth/password-reset", json: #"{"email":"\#(email)"}"#).status == .accepted)
            try await t.deliverMail()
            let token = try #require(t.mailer.token(to: email, path: "/reset-password"))

            let weak = try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"\#(token)","password":"short"}"#)
            #expect(weak.status == .unprocessableEntity)
            let ok = try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"\#(token)","password":"a brand new secret"}"#)
            #expect(ok.status == .noContent)
            let again = try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"\#(token)","password":"yet another secret"}"#)
            #expect(again.status == .unprocessableEntity)

            #expect(try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"a brand new secret"}"#).status == .ok)
            #expect(try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(TestApp.password)"}"#).status == .unauthorized)
            #expect(try await t.send(.GET, "/api/v1/me", token: session.accessToken).status == .unauthorized)
        }
    }

    @Test("reset tokens expire after an hour")
    func resetExpiry() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("expiry")
            _ = try await t.signUp(email: email)
            _ = try await t.send(.POST, "/api/v1/auth/password-reset", json: #"{"email":"\#(email)"}"#)
            try await t.deliverMail()
            let token = try #require(t.mailer.token(to: email, path: "/reset-password"))
            t.clock.advance(by: 3601)
            let late = try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"\#(token)","password":"a brand new secret"}"#)
            #expect(late.status == .unprocessableEntity)
        }
    }

    @Test("an unknown address gets the same 202 and no mail")
    func unknownAddress() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.POST, "/api/v1/auth/password-reset", json: #"{"email":"ghost@example.com"}"#)
            #expect(response.status == .accepted)
            try await t.deliverMail()
            #expect(t.mailer.mails(to: "ghost@example.com").isEmpty)
        }
    }

    @Test("the verification link verifies; an email change takes effect only after its link")
    func verifyAndChangeEmail() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("verify")
            let session = try await t.signUp(email: email)
            try await t.deliverMail()
            let token = try #require(t.mailer.token(to: email, path: "/verify-email"))
            #expect(try await t.send(.POST, "/api/v1/auth/verify-email", json: #"{"token":"\#(token)"}"#).status == .noContent)

            let newEmail = uniqueEmail("new")
            let wrongPassword = try await t.send(
                .POST, "/api/v1/me/email", json: #"{"newEmail":"\#(newEmail)","password":"not my password"}"#, token: session.accessToken)
            #expect(wrongPassword.status == .unprocessableEntity)
            let change = try await t.send(
                .POST, "/api/v1/me/email", json: #"{"newEmail":"\#(newEmail)","password":"\#(TestApp.password)"}"#,
                token: session.accessToken)
            #expect(change.status == .accepted)
            #expect(try await User.find(UUID(uuidString: session.user.id), on: t.app.db)?.email == email)
            try await t.deliverMail()
            let changeToken = try #require(t.mailer.token(to: newEmail, path: "/verify-email"))
            #expect(try await t.send(.POST, "/api/v1/auth/verify-email", json: #"{"token":"\#(changeToken)"}"#).status == .noContent)
            #expect(try await User.find(UUID(uuidString: session.user.id), on: t.app.db)?.email == newEmail)
        }
    }

    @Test("change password needs the current one and returns a fresh session")
    func changePassword() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp()
            let wrong = try await t.send(
                .POST, "/api/v1/me/password", json: #"{"currentPassword":"nope nope nope","newPassword":"a new long secret"}"#,
                token: session.accessToken)
            #expect(wrong.status == .unprocessableEntity)
            #expect(try wrong.problem().fields == ["currentPassword"])
            let ok = try await t.send(
                .POST, "/api/v1/me/password", json: #"{"currentPassword":"\#(TestApp.password)","newPassword":"a new long secret"}"#,
                token: session.accessToken)
            #expect(ok.status == .ok)
            let fresh = try ok.content.decode(Session.self)
            #expect(try await t.send(.GET, "/api/v1/me", token: fresh.accessToken).status == .ok)
            #expect(try await t.send(.GET, "/api/v1/me", token: session.accessToken).status == .unauthorized)
        }
    }
}
