import OpenAPIRuntime
import Vapor

/// Turns every error into an RFC 9457 problem: our own `Problem`s, Vapor's aborts (unknown route,
/// body too large, ...), errors from the generated OpenAPI layer (undecodable JSON, wrong content
/// type) and anything unexpected (a 500, logged). Browsers asking for HTML get an error page instead.
struct ProblemMiddleware: Middleware {
    let methodIndex: RouteMethodIndex

    // On futures: it sees every request, and only an error page needs a task (see SecurityHeadersMiddleware).
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).flatMapError { error in
            let problem = problem(for: error, request: request)
            if problem.status.code >= 500 {
                // A ServerError's own description carries the request, Authorization header
                // included; only the operation and the cause are logged.
                if let serverError = error as? ServerError {
                    request.logger.error("\(serverError.operationID) failed: \(String(reflecting: serverError.underlyingError))")
                } else {
                    request.logger.report(error: error)
                }
            }
            if wantsHTML(request) {
                return request.eventLoop.makeFutureWithTask { try await ErrorPage.render(problem, for: request) }
            }
            return request.eventLoop.makeSucceededFuture(problem.response(instance: request.url.path))
        }
    }

    private func wantsHTML(_ request: Request) -> Bool {
        guard !request.url.path.hasPrefix("/api/") else { return false }
        return request.headers[.accept].contains { $0.contains("text/html") }
    }

    func problem(for error: any Error, request: Request) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let serverError as ServerError:
            return problem(forServerError: serverError, request: request)
        case let decoding as DecodingError:
            return DecodingProblem.make(decoding)
        case is RouteNotFound:
            let allowed = methodIndex.methods(forPath: request.url.path)
            if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
                return Problem(
                    .methodNotAllowed,
                    detail: "\(request.method.rawValue) is not allowed here. Allowed: \(allowed.joined(separator: ", ")).",
                    headers: [("Allow", allowed.joined(separator: ", "))])
            }
            return Problem.nothing(at: request.url.path)
        case let abort as any AbortError:
            return Problem(
                abort.status, detail: abort.reason == abort.status.reasonPhrase ? nil : abort.reason,
                headers: abort.headers.map { ($0.name, $0.value) })
        default:
            if let temporary = TemporaryFailure.problem(for: error) { return temporary }
            return Problem(.internalServerError, detail: "Something went wrong on our side. It has been logged.")
        }
    }

    private func problem(forServerError error: ServerError, request: Request) -> Problem {
        switch error.underlyingError {
        case let problem as Problem:
            return problem
        case let decoding as DecodingError:
            // Without a body, the generated code was decoding a path, query or header parameter.
            guard let body = request.body.data, body.readableBytes > 0 else {
                return DecodingProblem.parameter(decoding, query: request.url.query)
            }
            return DecodingProblem.make(decoding)
        case let abort as any AbortError:
            return self.problem(for: abort, request: request)
        default:
            if let temporary = TemporaryFailure.problem(for: error.underlyingError) { return temporary }
            let status = HTTPResponseStatus(statusCode: Int(error.httpStatus.code))
            if status.code >= 500 {
                return Problem(.internalServerError, detail: "Something went wrong on our side. It has been logged.")
            }
            return Problem(status, detail: String(describing: error.underlyingError))
        }
    }
}

extension Problem {
    struct Body: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String?
        var instance: String?
        var errors: [FieldError]?
    }

    func response(instance: String?) -> Response {
        let body = Body(
            type: type, title: title, status: Int(status.code), detail: detail, instance: instance,
            errors: errors.isEmpty ? nil : errors)
        var headers = HTTPHeaders()
        headers.contentType = HTTPMediaType(type: "application", subType: "problem+json")
        for (name, value) in self.headers { headers.replaceOrAdd(name: name, value: value) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data()
        return Response(status: status, headers: headers, body: .init(data: data))
    }
}

/// Names the field behind a JSON decoding failure, so the client can point at it.
enum DecodingProblem {
    static func make(_ error: DecodingError) -> Problem {
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalid(field, "is required")
        case .typeMismatch(let type, let context):
            return .invalid(path(context.codingPath), "must be \(describe(type))")
        case .valueNotFound(let type, let context):
            return .invalid(path(context.codingPath), "must be \(describe(type)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return Problem(
                    .badRequest, type: "https://atelier.dev/problems/malformed-json", title: "Malformed JSON",
                    detail: "The request body is not valid JSON.",
                    errors: [.init(field: "body", message: "is not valid JSON")])
            }
            return .invalid(path(context.codingPath), "has an invalid value")
        @unknown default:
            return Problem(.badRequest, detail: "The request body could not be read.")
        }
    }

    static func parameter(_ error: DecodingError, query: String?) -> Problem {
        var names: [String] = []
        if case .keyNotFound(let key, _) = error { names.append(key.stringValue) }
        if let query {
            names += query.split(separator: "&").compactMap { $0.split(separator: "=").first.map(String.init) }
        }
        let field = names.first ?? "parameters"
        return Problem(
            .badRequest, detail: "A parameter has a value of the wrong type or format.",
            errors: [.init(field: field, message: "has a value of the wrong type or format")])
    }

    static func path(_ keys: [any CodingKey]) -> String {
        var result = ""
        for key in keys {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result.isEmpty ? "body" : result
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        default:
            String(describing: type).contains("Array") ? "a list" : "an object of the documented shape"
        }
    }
}
