import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Sign-up and sign-in")
struct SignUpTests {
    @Test("sign-up returns 201 with tokens, and the access token reads the profile")
    func signUpThenMe() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("ana")
            let session = try await t.signUp(email: email.uppercased(), name: "Ana Pop")
            #expect(session.user.email == email)
            #expect(!session.accessToken.isEmpty && !session.refreshToken.isEmpty)
            let me = try await t.send(.GET, "/api/v1/me", token: session.accessToken)
            #expect(me.status == .ok)
            #expect(try me.content.decode(Session.UserBody.self).displayName == "Ana Pop")
            // A verification mail goes out through the outbox.
            try await t.deliverMail()
            #expect(t.mailer.token(to: email, path: "/verify-email") != nil)
        }
    }

    @Test(
        "bad sign-up input is a 4xx problem naming the field, and nothing is written",
        arguments: [
            (#"{"email":"a@b.se","password":"#, 400, "body"),
            (#"{"email":"a@b.se","password":"long enough pass"}"#, 422, "displayName"),
            (#"{"email":"a@b.se","password":"abcde","displayName":"X"}"#, 422, "password"),
            (#"{"email":"a@b.se","password":"1234567890","displayName":"X"}"#, 422, "password"),
            (#"{"email":"not-an-email","password":"long enough pass","displayName":"X"}"#, 422, "email"),
            (#"{"email":"a@b.se","password":"long enough pass","displayName":"X","timeZone":"Mars/Olympus"}"#, 422, "timeZone"),
            (#"{"email":"a@b.se","password":"long enough pass","displayName":"X","username":"no spaces!"}"#, 422, "username"),
            (#"{"email":7,"password":"long enough pass","displayName":"X"}"#, 422, "email"),
        ])
    func badInput(json: String, status: Int, field: String) async throws {
        try await TestApp.with { t in
            let response = try await t.send(.POST, "/api/v1/auth/signup", json: json)
            #expect(Int(response.status.code) == status, "\(response.body.string)")
            #expect(try response.problem().fields.contains(field), "\(response.body.string)")
            #expect(try await t.userCount(emails: ["a@b.se", "not-an-email"]) == 0)
        }
    }

    @Test("an email differing only in case is a 409 conflict")
    func duplicateEmail() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("dup")
            _ = try await t.signUp(email: email)
            let response = try await t.send(
                .POST, "/api/v1/auth/signup",
                json: #"{"email":"\#(email.uppercased())","password":"another long one","displayName":"Y"}"#)
            #expect(response.status == .conflict)
            #expect(try response.problem().fields == ["email"])
            #expect(try await t.userCount(emails: [email]) == 1)
        }
    }

    @Test("concurrent sign-ups with the same name all succeed with distinct usernames")
    func concurrentSameName() async throws {
        try await TestApp.with { t in
            let usernames = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await t.signUp(name: "Same Name").user.username } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(Set(usernames).count == 8)
        }
    }

    @Test("sign-in with the right password works; a wrong one is 401 without saying whether the email exists")
    func logIn() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail()
            _ = try await t.signUp(email: email)
            let ok = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(TestApp.password)"}"#)
            #expect(ok.status == .ok)
            let wrong = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"wrong password!"}"#)
            let unknown = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"nobody@example.com","password":"wrong password!"}"#)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(try wrong.problem().detail == unknown.problem().detail)
        }
    }

    @Test("the 11th failed sign-in within a minute from one address gets 429 with Retry-After")
    func loginRateLimit() async throws {
        try await TestApp.with { t in
            for attempt in 1...10 {
                let response = try await t.send(
                    .POST, "/api/v1/auth/login", json: #"{"email":"x\#(attempt)@example.com","password":"wrong password!"}"#)
                #expect(response.status == .unauthorized)
            }
            let limited = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"y@example.com","password":"wrong password!"}"#)
            #expect(limited.status == .tooManyRequests)
            let retryAfter = Int(limited.headers.first(name: "Retry-After") ?? "")
            #expect(retryAfter != nil && retryAfter! > 0 && retryAfter! <= 60)
            t.clock.advance(by: 61)
            let later = try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"y@example.com","password":"wrong password!"}"#)
            #expect(later.status == .unauthorized)
        }
    }
}
