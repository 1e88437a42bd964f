import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// NUL (`\u0000`) in any JSON text is a 422 naming the field, before anything is stored: on
/// PostgreSQL it used to be a 500, on SQLite it was stored. Runs on both databases.
@Suite("NUL in JSON text")
struct NULTextTests {
    private static let nul = #"a\u0000b"#

    private func expectRefused(_ response: TestingHTTPResponse, field: String, _ what: String) throws {
        #expect(response.status == .unprocessableEntity, "\(what): \(response.status) \(response.body.string)")
        let problem = try response.problem()
        #expect(problem.errors?.first?.field == field, "\(what): \(response.body.string)")
    }

    @Test("sign-up, sign-in and password reset: each text field")
    func accounts() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail()
            let signUpFields: [(String, String)] = [
                ("email", #"{"email":"\#(Self.nul)@example.com","password":"\#(TestApp.password)","displayName":"N"}"#),
                ("password", #"{"email":"\#(email)","password":"long enough \#(Self.nul) password","displayName":"N"}"#),
                ("displayName", #"{"email":"\#(email)","password":"\#(TestApp.password)","displayName":"\#(Self.nul)"}"#),
                ("username", #"{"email":"\#(email)","password":"\#(TestApp.password)","displayName":"N","username":"\#(Self.nul)"}"#),
                ("timeZone", #"{"email":"\#(email)","password":"\#(TestApp.password)","displayName":"N","timeZone":"\#(Self.nul)"}"#),
                ("locale", #"{"email":"\#(email)","password":"\#(TestApp.password)","displayName":"N","locale":"\#(Self.nul)"}"#),
            ]
            for (field, json) in signUpFields {
                try expectRefused(try await t.send(.POST, "/api/v1/auth/signup", json: json), field: field, "sign-up \(field)")
            }
            #expect(try await t.userCount(emails: [email]) == 0)

            _ = try await t.signUp(email: email)
            try expectRefused(
                try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(Self.nul)","password":"x"}"#), field: "email", "sign-in email")
            try expectRefused(
                try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(Self.nul)"}"#), field: "password",
                "sign-in password")
            try expectRefused(
                try await t.send(.POST, "/api/v1/auth/password-reset", json: #"{"email":"\#(Self.nul)"}"#), field: "email", "reset email")
            try expectRefused(
                try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"\#(Self.nul)","password":"\#(TestApp.password)"}"#),
                field: "token", "reset token")
            try expectRefused(
                try await t.send(.POST, "/api/v1/auth/password-reset/confirm", json: #"{"token":"abc","password":"\#(Self.nul)"}"#),
                field: "password", "reset password")
            // Still signs in with the untouched password.
            #expect(try await t.send(.POST, "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(TestApp.password)"}"#).status == .ok)
        }
    }

    @Test("PATCH /me and boards: each text field; nothing changes")
    func profileAndBoards() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp(name: "Before")
            for field in ["displayName", "username", "about", "birthDate", "genderPreference", "homeCity", "locale", "timeZone"] {
                try expectRefused(
                    try await t.send(.PATCH, "/api/v1/me", json: #"{"\#(field)":"\#(Self.nul)"}"#, token: s.accessToken), field: field, "PATCH /me \(field)")
            }
            let me = try await t.send(.GET, "/api/v1/me", token: s.accessToken)
            #expect(me.body.string.contains(#""displayName":"Before""#))

            try expectRefused(
                try await t.send(.POST, "/api/v1/me/boards", json: #"{"name":"\#(Self.nul)"}"#, token: s.accessToken), field: "name", "board name")
            let boards = try await t.send(.GET, "/api/v1/me/boards", token: s.accessToken)
            #expect(!boards.body.string.contains(#""name""#), "\(boards.body.string)")
            // Nested fields are named by their path; an escaped backslash before u0000 is plain text.
            #expect(JSONNULScan.fieldHoldingNUL(Data(#"{"a":[{"b":"x"},{"c":"\u0000"}]}"#.utf8)) == "a[1].c")
            #expect(!JSONNULScan.mayHoldNUL(Array(#"{"a":"\\u0000"}"#.utf8)) || JSONNULScan.fieldHoldingNUL(Data(#"{"a":"\\u0000"}"#.utf8)) == nil)
            // JSON bodies (and untyped ones) are scanned; a photo's or a form's bytes are not.
            #expect(HTTPMediaType.mayBeJSON(nil) && HTTPMediaType.mayBeJSON(.json))
            #expect(HTTPMediaType.mayBeJSON(HTTPMediaType(type: "application", subType: "Problem+JSON")))
            #expect(!HTTPMediaType.mayBeJSON(.jpeg) && !HTTPMediaType.mayBeJSON(.urlEncodedForm) && !HTTPMediaType.mayBeJSON(.formData))
        }
    }
}
