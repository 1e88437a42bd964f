import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds the bearer token (refreshed first when about to expire); on a 401 gets a fresh token (one
/// refresh for all concurrent callers) and retries the call once.
struct AuthenticationMiddleware: ClientMiddleware {
    let tokens: TokenManager

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let token = try await tokens.accessTokenForRequest() else {
            return try await next(request, body, baseURL)
        }
        let bytes = try await ReplayableBody.bytes(of: body)
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

/// Gives every write one `Idempotency-Key` per logical call (unless the caller chose one, as
/// `CheckoutAttempt` does), set before `RetryMiddleware` so each retry carries the same key and a
/// post, like, upload or checkout retried after a lost answer is done once.
struct IdempotencyKeyMiddleware: ClientMiddleware {
    static let header = HTTPField.Name("Idempotency-Key")!

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        if [.post, .put, .patch, .delete].contains(request.method), request.headerFields[Self.header] == nil {
            request.headerFields[Self.header] = UUID().uuidString.lowercased()
        }
        return try await next(request, body, baseURL)
    }
}

/// A request body kept in memory so that a call can be sent again (after a refresh, or a retry).
enum ReplayableBody {
    static let maxBytes = 32 * 1024 * 1024

    static func bytes(of body: HTTPBody?) async throws -> [UInt8]? {
        guard let body else { return nil }
        return try await [UInt8](collecting: body, upTo: maxBytes)
    }
}
