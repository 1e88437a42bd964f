import Vapor

/// The generated server writes every header value as a URI component, so
/// `attachment; filename="a.zip"` went out as `attachment%3B%20filename%3D%22a.zip%22` and browsers
/// lost the file name. Headers whose syntax is their own (RFC 6266's `Content-Disposition`) are
/// decoded back once here, for every operation: exactly what the runtime encoded, nothing more.
struct RawHeadersMiddleware: AsyncMiddleware {
    static let names: [HTTPHeaders.Name] = [.contentDisposition]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        for name in Self.names {
            guard let value = response.headers.first(name: name), value.contains("%"),
                let decoded = value.removingPercentEncoding
            else { continue }
            response.headers.replaceOrAdd(name: name, value: decoded)
        }
        return response
    }
}
