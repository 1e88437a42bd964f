import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Idempotency-Key")
struct IdempotencyTests {
    @Test("the same key and body returns the first response and does the work once")
    func replay() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("idem")
            let body = #"{"email":"\#(email)","password":"correct horse battery","displayName":"Idem"}"#
            let key = [("Idempotency-Key", "signup-\(UUID().uuidString)")]
            let first = try await t.send(.POST, "/api/v1/auth/signup", json: body, headers: key)
            let second = try await t.send(.POST, "/api/v1/auth/signup", json: body, headers: key)
            #expect(first.status == .created && second.status == .created)
            #expect(first.body.string == second.body.string)
            #expect(second.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await User.query(on: t.app.db).filter(\.$email == email).count() == 1)

            let different = try await t.send(
                .POST, "/api/v1/auth/signup", json: body.replacingOccurrences(of: "Idem", with: "Other"), headers: key)
            #expect(different.status == .unprocessableEntity)
        }
    }

    @Test("keys are per caller and expire after 24 hours")
    func scopeAndExpiry() async throws {
        try await TestApp.with { t in
            let a = try await t.signUp()
            let b = try await t.signUp()
            let keyValue = "resend-\(UUID().uuidString)"
            let key = [("Idempotency-Key", keyValue)]
            #expect(try await t.send(.POST, "/api/v1/me/email/verification", token: a.accessToken, headers: key).status == .accepted)
            #expect(try await t.send(.POST, "/api/v1/me/email/verification", token: b.accessToken, headers: key).status == .accepted)
            #expect(try await IdempotencyRecord.query(on: t.app.db).filter(\.$key == keyValue).count() == 2)
            t.clock.advance(by: 24 * 3600 + 1)
            let afterExpiry = try await t.send(.POST, "/api/v1/me/email/verification", token: a.accessToken, headers: key)
            #expect(afterExpiry.headers.first(name: "Idempotent-Replayed") == nil)
        }
    }
}
