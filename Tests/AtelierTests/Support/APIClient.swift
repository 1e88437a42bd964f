import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// Small helpers for calling the JSON API in tests.
struct Session: Decodable {
    var accessToken: String
    var refreshToken: String
    var user: UserBody

    struct UserBody: Decodable {
        var id: String
        var email: String?
        var displayName: String
        var username: String
        var about: String?
        var timeZone: String
    }
}

struct ProblemBody: Decodable {
    var type: String
    var title: String
    var status: Int
    var detail: String?
    var errors: [Problem.FieldError]?

    var fields: [String] { errors?.map(\.field) ?? [] }
}

extension TestApp {
    static let password = "correct horse battery"

    @discardableResult
    func send(
        _ method: HTTPMethod, _ path: String, json: String? = nil, token: String? = nil,
        headers extra: [(String, String)] = []
    ) async throws -> TestingHTTPResponse {
        var headers = HTTPHeaders()
        if let json {
            headers.contentType = .json
            headers.add(name: .contentLength, value: String(json.utf8.count))
        }
        if let token { headers.bearerAuthorization = .init(token: token) }
        for (name, value) in extra { headers.add(name: name, value: value) }
        let body = json.map { ByteBuffer(string: $0) }
        return try await app.testing().sendRequest(method, path, headers: headers, body: body)
    }

    func signUp(email: String = uniqueEmail(), password: String = TestApp.password, name: String = "Test User") async throws -> Session {
        let response = try await send(
            .POST, "/api/v1/auth/signup", json: #"{"email":"\#(email)","password":"\#(password)","displayName":"\#(name)"}"#)
        #expect(response.status == .created, "\(response.body.string)")
        return try response.content.decode(Session.self)
    }

    /// Users with these addresses (tests share a PostgreSQL database, so they count only their own rows).
    func userCount(emails: [String]) async throws -> Int {
        try await User.query(on: app.db).filter(\.$email ~~ emails).count()
    }
}

extension TestingHTTPResponse {
    func problem() throws -> ProblemBody {
        #expect(headers.contentType?.description.hasPrefix("application/problem+json") == true)
        return try JSONDecoder().decode(ProblemBody.self, from: Data(buffer: body))
    }
}
