import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Errors are RFC 9457 problems")
struct ProblemTests {
    @Test("unknown route is a 404 problem")
    func unknownRoute() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.GET, "/api/v1/no-such-thing")
            #expect(response.status == .notFound)
            #expect(try response.problem().status == 404)
        }
    }

    @Test("wrong method is a 405 problem with Allow")
    func wrongMethod() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.DELETE, "/api/v1/auth/login")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers.first(name: "Allow") == "POST")
            _ = try response.problem()
        }
    }

    @Test("a body over the limit is a 413 problem")
    func bodyTooLarge() async throws {
        try await TestApp.with { t in
            let huge = #"{"email":""# + String(repeating: "a", count: 2_000_000) + #""}"#
            let response = try await t.send(.POST, "/api/v1/auth/login", json: huge)
            #expect(response.status == .payloadTooLarge)
            _ = try response.problem()
        }
    }

    @Test("undecodable JSON is a 400 problem; a wrong content type is 415")
    func undecodable() async throws {
        try await TestApp.with { t in
            let malformed = try await t.send(.POST, "/api/v1/auth/login", json: "{nope")
            #expect(malformed.status == .badRequest)
            #expect(try malformed.problem().fields == ["body"])
            let wrongType = try await t.send(.POST, "/api/v1/auth/login", headers: [("Content-Type", "text/plain")])
            #expect(wrongType.status == .unsupportedMediaType || wrongType.status == .badRequest)
            _ = try wrongType.problem()
        }
    }

    @Test("responses carry the security headers and a request id")
    func securityHeaders() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.GET, "/health")
            #expect(response.status == .ok)
            let csp = response.headers.first(name: "Content-Security-Policy") ?? ""
            #expect(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"))
            #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(response.headers.first(name: "Referrer-Policy") != nil)
            #expect(response.headers.first(name: "X-Request-Id") != nil)
        }
    }
}

@Suite("Health, metrics and the contract")
struct ObservabilityTests {
    @Test("health, readiness and metrics answer")
    func endpoints() async throws {
        try await TestApp.with { t in
            #expect(try await t.send(.GET, "/health").status == .ok)
            #expect(try await t.send(.GET, "/health/ready").status == .ok)
            _ = try await t.send(.GET, "/api/v1/me")
            let metrics = try await t.send(.GET, "/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.body.string.contains(#"http_requests_total{method="GET",path="/api/v1/me",status="401"}"#))
            #expect(metrics.body.string.contains("http_request_duration_seconds_bucket"))
        }
    }

    @Test("the server serves openapi.yaml byte for byte")
    func contract() async throws {
        try await TestApp.with { t in
            let response = try await t.send(.GET, "/api/v1/openapi.yaml")
            #expect(response.status == .ok)
            let file = try Data(contentsOf: URL(fileURLWithPath: t.app.directory.workingDirectory + "openapi.yaml"))
            #expect(Data(buffer: response.body) == file)
        }
    }
}

@Suite("Parameter errors")
struct ParameterErrorTests {
    @Test("an undecodable query parameter is a 400 naming it")
    func badQuery() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.send(.GET, "/api/v1/me/devices?limit=ten", token: s.accessToken)
            #expect(response.status == .badRequest)
            #expect(try response.problem().fields == ["limit"])
        }
    }
}
