import Vapor

/// An RFC 9457 problem. Thrown anywhere; `ProblemMiddleware` turns it into `application/problem+json`.
public struct Problem: Error, Sendable, Equatable {
    public struct FieldError: Codable, Sendable, Equatable {
        public var field: String
        public var message: String
        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    public var status: HTTPResponseStatus
    public var type: String
    public var title: String
    public var detail: String?
    public var errors: [FieldError]
    public var headers: [(String, String)]

    public init(
        _ status: HTTPResponseStatus, type: String? = nil, title: String? = nil, detail: String? = nil,
        errors: [FieldError] = [], headers: [(String, String)] = []
    ) {
        self.status = status
        self.type = type ?? Problem.defaultType(for: status)
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    public static func == (lhs: Problem, rhs: Problem) -> Bool {
        lhs.status == rhs.status && lhs.type == rhs.type && lhs.detail == rhs.detail && lhs.errors == rhs.errors
    }

    static func defaultType(for status: HTTPResponseStatus) -> String {
        let slug = status.reasonPhrase.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
        return "https://atelier.dev/problems/\(slug)"
    }

    /// The first message for each field, as forms show them next to the field.
    public var messagesByField: [String: String] {
        errors.reduce(into: [:]) { result, error in
            if result[error.field] == nil { result[error.field] = error.message }
        }
    }

    // MARK: Common problems

    public static func validation(_ errors: [FieldError], detail: String? = nil) -> Problem {
        let fields = errors.map(\.field).joined(separator: ", ")
        return Problem(
            .unprocessableEntity, type: "https://atelier.dev/problems/validation", title: "Invalid input",
            detail: detail ?? "Check these fields: \(fields).", errors: errors)
    }

    public static func invalid(_ field: String, _ message: String) -> Problem {
        validation([FieldError(field: field, message: message)], detail: "\(field): \(message)")
    }

    /// A paging cursor that was not made by this server (or by this query).
    public static func invalidCursor() -> Problem {
        Problem(.badRequest, detail: "The cursor is not one this server gave out.", errors: [.init(field: "cursor", message: "is invalid")])
    }

    public static func notFound(_ what: String = "resource") -> Problem {
        Problem(.notFound, detail: "No such \(what), or you may not see it.")
    }

    /// A path that no route (or no file) answers.
    public static func nothing(at path: String) -> Problem {
        Problem(.notFound, detail: "There is nothing at \(path).")
    }

    public static func unauthorized(_ detail: String) -> Problem {
        Problem(.unauthorized, detail: detail, headers: [("WWW-Authenticate", "Bearer")])
    }

    public static func conflict(_ detail: String, field: String? = nil) -> Problem {
        Problem(
            .conflict, detail: detail,
            errors: field.map { [FieldError(field: $0, message: detail)] } ?? [])
    }

    public static func tooManyRequests(retryAfter seconds: Int) -> Problem {
        Problem(
            .tooManyRequests, detail: "Too many attempts. Try again in \(seconds) seconds.",
            headers: [("Retry-After", String(seconds))])
    }
}

/// Collects field errors while validating an input, then throws them all at once.
public struct FieldErrors: Sendable {
    public private(set) var errors: [Problem.FieldError] = []
    public init() {}

    public mutating func add(_ field: String, _ message: String) {
        errors.append(.init(field: field, message: message))
    }

    public func throwIfAny() throws {
        if !errors.isEmpty { throw Problem.validation(errors) }
    }
}
