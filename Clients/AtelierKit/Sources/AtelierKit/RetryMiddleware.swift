import Foundation
import HTTPTypes
import OpenAPIRuntime

/// When a call is tried again: on a lost connection, 502, 503, 504 and 429 (and the server's
/// "still being handled" for a key it is working on), with exponential
/// backoff and full jitter, never sooner than the server's `Retry-After`. Only calls that are safe
/// to repeat are: reads, and writes carrying an `Idempotency-Key` (the server does those once).
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included.
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// A `Retry-After` longer than this is not waited for: the answer goes back to the caller.
    public var maxRetryAfter: Duration

    public init(maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(300), maxDelay: Duration = .seconds(8), maxRetryAfter: Duration = .seconds(30)) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public static let standard = RetryPolicy()
    public static let none = RetryPolicy(maxAttempts: 1)

    static let retriedStatuses: Set<Int> = [429, 502, 503, 504]

    /// The wait before attempt `attempt + 1`: a random share of the doubled base, capped.
    func backoff(after attempt: Int) -> Duration {
        let ceiling = min(maxDelay, baseDelay * (1 << min(attempt - 1, 16)))
        return ceiling * Double.random(in: 0...1)
    }

    /// `Retry-After` as seconds or an HTTP date.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}

struct RetryMiddleware: ClientMiddleware {
    let policy: RetryPolicy

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard policy.maxAttempts > 1, Self.safeToRepeat(request) else { return try await next(request, body, baseURL) }
        let bytes = try await ReplayableBody.bytes(of: body)
        var attempt = 1
        while true {
            let last = attempt >= policy.maxAttempts
            do {
                let (response, responseBody) = try await next(request, bytes.map { HTTPBody($0) }, baseURL)
                guard !last, Self.isRetried(response, of: request) else { return (response, responseBody) }
                let asked = RetryPolicy.retryAfter(response.headerFields[.retryAfter])
                if let asked, asked > policy.maxRetryAfter { return (response, responseBody) }
                try await Task.sleep(for: max(asked ?? .zero, policy.backoff(after: attempt)))
            } catch let error where !last && Self.isConnectionFailure(error) {
                try await Task.sleep(for: policy.backoff(after: attempt))
            }
            attempt += 1
        }
    }

    /// The busy answers, and the server's "a request with this key is still being handled" (a 409
    /// with `Retry-After`, seen when a retry overtakes the first attempt).
    static func isRetried(_ response: HTTPResponse, of request: HTTPRequest) -> Bool {
        if RetryPolicy.retriedStatuses.contains(response.status.code) { return true }
        return response.status.code == 409 && response.headerFields[.retryAfter] != nil
            && request.headerFields[IdempotencyKeyMiddleware.header] != nil
    }

    static func safeToRepeat(_ request: HTTPRequest) -> Bool {
        [.get, .head, .options].contains(request.method) || request.headerFields[IdempotencyKeyMiddleware.header] != nil
    }

    /// A failure of the network, not of the call: no answer came (or it was cut off).
    static func isConnectionFailure(_ error: any Error) -> Bool {
        if error is CancellationError { return false }
        if let client = error as? ClientError { return isConnectionFailure(client.underlyingError) }
        if error is URLError { return true }
        let ns = error as NSError
        return ns.domain == NSURLErrorDomain || ns.domain == NSPOSIXErrorDomain
    }
}
