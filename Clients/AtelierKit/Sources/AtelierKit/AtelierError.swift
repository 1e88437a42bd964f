import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Every way an AtelierKit call fails, one type for the whole SDK.
public enum AtelierError: Error, Equatable {
    /// No valid session: sign in again.
    case signedOut
    /// Too many requests: try again after `retryAfter` (nil when the server did not say).
    case rateLimited(retryAfter: Duration?)
    /// The server refused the call with a problem (RFC 9457): what it found wrong, and whether
    /// and when to try again.
    case rejected(AtelierProblem)
    /// An answer the contract does not describe (a bug of the server's or the SDK's).
    case unexpectedResponse(String)

    init(_ problem: Components.Schemas.Problem?, status: Int, retryAfter: Duration? = nil) {
        self = .rejected(AtelierProblem(problem, status: status, retryAfter: retryAfter))
    }

    /// A refusal the SDK makes itself, before asking the server (for example a radius it does not know).
    static func rejected(status: Int, detail: String, fields: [String]) -> AtelierError {
        .rejected(AtelierProblem(status: status, type: "about:blank", title: detail, detail: detail, messages: fields.map { ($0, detail) }))
    }

    /// The HTTP status the server answered with (401 for `signedOut`, 429 for `rateLimited`).
    public var status: Int? {
        switch self {
        case .signedOut: 401
        case .rateLimited: 429
        case .rejected(let problem): problem.status
        case .unexpectedResponse: nil
        }
    }

    /// The fields the server found wrong, in its order (empty when it named none).
    public var fields: [String] {
        if case .rejected(let problem) = self { return problem.fields }
        return []
    }

    public var retryAfter: Duration? {
        switch self {
        case .rateLimited(let after): after
        case .rejected(let problem): problem.retryAfter
        default: nil
        }
    }

    /// Whether sending the same call again (with the same `Idempotency-Key`) may succeed: after a
    /// rate limit or a busy server, yes; after a refusal of the input or a sign-out, no.
    public var isRetrySafe: Bool {
        switch self {
        case .rateLimited: true
        case .rejected(let problem): problem.isRetrySafe
        case .signedOut, .unexpectedResponse: false
        }
    }
}

/// What the server said when it refused a call.
public struct AtelierProblem: Sendable, Equatable {
    public var status: Int
    /// The problem's type URI (`about:blank` when it gave none), to tell refusals apart in code.
    public var type: String
    public var title: String
    /// A sentence for people.
    public var detail: String
    /// Field → what is wrong with it, in the server's order.
    public var messages: [(field: String, message: String)]
    public var retryAfter: Duration?

    public var fields: [String] { messages.map(\.field) }

    /// A busy answer, or the server still working on the same key (a 409 with `Retry-After`).
    public var isRetrySafe: Bool {
        [502, 503, 504].contains(status) || (status == 409 && retryAfter != nil)
    }

    public init(status: Int, type: String, title: String, detail: String, messages: [(field: String, message: String)] = [], retryAfter: Duration? = nil) {
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.messages = messages
        self.retryAfter = retryAfter
    }

    init(_ problem: Components.Schemas.Problem?, status: Int, retryAfter: Duration?) {
        let title = problem?.title ?? "HTTP \(status)"
        self.init(
            status: status, type: problem?._type ?? "about:blank", title: title, detail: problem?.detail ?? title,
            messages: (problem?.errors ?? []).map { ($0.field, $0.message) }, retryAfter: retryAfter)
    }

    public static func == (lhs: AtelierProblem, rhs: AtelierProblem) -> Bool {
        lhs.status == rhs.status && lhs.type == rhs.type && lhs.title == rhs.title && lhs.detail == rhs.detail
            && lhs.fields == rhs.fields && lhs.messages.map(\.message) == rhs.messages.map(\.message) && lhs.retryAfter == rhs.retryAfter
    }
}

extension AtelierError {
    /// Whether `error` came from the network (no connection, a timeout, a dropped connection)
    /// rather than from the server's answer: show "offline" and keep what is on screen.
    public static func isOffline(_ error: any Error) -> Bool {
        RetryMiddleware.isConnectionFailure(error)
    }

    /// Any error of an AtelierKit call, described so that it is safe to log or show. A network
    /// failure reaches the app as OpenAPIRuntime's `ClientError`, whose own description spells out
    /// the whole request, body included (a password on sign-up); this keeps the operation and the
    /// cause only.
    public static func loggable(_ error: any Error) -> String {
        switch error {
        case let error as AtelierError:
            switch error {
            case .signedOut: return "signed out"
            case .rateLimited(let after): return "rate limited" + (after.map { ", retry after \($0)" } ?? "")
            case .rejected(let problem):
                let fields = problem.fields.isEmpty ? "" : " [\(problem.fields.joined(separator: ", "))]"
                return "\(problem.status) \(problem.detail.isEmpty ? problem.title : problem.detail)\(fields)"
            case .unexpectedResponse(let what): return "unexpected response: \(what)"
            }
        case let error as ClientError:
            return "\(error.operationID): \(cause(error.underlyingError))"
        default:
            return cause(error)
        }
    }

    /// The error's domain, code and message, without the URLs and inputs its user info may carry.
    private static func cause(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        let ns = error as NSError
        let message = ns.userInfo[NSLocalizedDescriptionKey] as? String
        return "\(ns.domain) \(ns.code)" + (message.map { ": \($0)" } ?? "")
    }
}
