import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds the bearer token; on a 401 gets a fresh token (one refresh for all concurrent callers)
/// and retries the call once.
struct AuthenticationMiddleware: ClientMiddleware {
    let tokens: TokenManager
    /// Bodies are kept so the call can be sent a second time.
    static let maxRetriedBodyBytes = 32 * 1024 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try await tokens.current()?.accessToken else {
            return try await next(request, body, baseURL)
        }
        let bytes: [UInt8]? = if let body { try await [UInt8](collecting: body, upTo: Self.maxRetriedBodyBytes) } else { nil }
        let (response, responseBody) = try await next(authorized(request, token), bytes.map { HTTPBody($0) }, baseURL)
        guard response.status == .unauthorized else { return (response, responseBody) }

        let fresh: String
        do {
            fresh = try await tokens.accessToken(replacing: token)
        } catch AtelierError.signedOut {
            return (response, responseBody)
        }
        return try await next(authorized(request, fresh), bytes.map { HTTPBody($0) }, baseURL)
    }

    private func authorized(_ request: HTTPRequest, _ token: String) -> HTTPRequest {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return request
    }
}

/// Sets an `Idempotency-Key` on creating requests, so a retried upload or post is done once.
struct IdempotencyKeyMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if request.method == .post, let name = HTTPField.Name("Idempotency-Key"), request.headerFields[name] == nil {
            request.headerFields[name] = UUID().uuidString.lowercased()
        }
        return try await next(request, body, baseURL)
    }
}
