import Vapor

/// The Vapor request behind a generated OpenAPI handler, which only sees typed input.
/// Set by `RequestContextMiddleware`, the last middleware on the API routes.
public enum RequestContext {
    @TaskLocal public static var current: Request?

    static func request() throws -> Request {
        guard let request = current else {
            throw Abort(.internalServerError, reason: "RequestContextMiddleware is not installed on the API routes.")
        }
        return request
    }
}

struct RequestContextMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await RequestContext.$current.withValue(request) {
            try await next.respond(to: request)
        }
    }
}

/// JSON bodies are read whole (the generated code decodes them), so they are capped first:
/// a body over the limit is a `413` problem before any work is done.
struct JSONBodyLimitMiddleware: AsyncMiddleware {
    let maxBytes: Int

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if request.method != .GET, request.method != .HEAD, HTTPMediaType.mayBeJSON(request.headers.contentType) {
            if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > maxBytes {
                throw Problem(.payloadTooLarge, detail: "The body is larger than \(maxBytes) bytes.")
            }
            _ = try await request.body.collect(max: maxBytes).get()
        }
        return try await next.respond(to: request)
    }
}

extension HTTPMediaType {
    /// A request body the API may read as JSON: typed `json` or `+json` (media types are
    /// case-insensitive), or untyped. The body limit and the NUL scan agree on it through this.
    static func mayBeJSON(_ type: HTTPMediaType?) -> Bool {
        guard let type else { return true }
        let subType = type.subType.lowercased()
        return subType == "json" || subType.hasSuffix("+json")
    }
}

extension HTTPHeaders {
    /// An answer typed `…/json` (`application/json; charset=utf-8`), read without Vapor's parser of
    /// header directives (`contentType`), which was 3 % of a product page's CPU (issue 19), and over
    /// the bytes: trimming and lowercasing the subtype as strings was still 1.3 %.
    var isJSONAnswer: Bool {
        guard let value = first(name: .contentType) else { return false }
        let bytes = value.utf8
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return false }
        var subType = bytes[bytes.index(after: slash)...]
        if let semicolon = subType.firstIndex(of: UInt8(ascii: ";")) { subType = subType[..<semicolon] }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let trimmed = subType.drop(while: blank).reversed().drop(while: blank)
        // Read backwards: "nosj". `| 0x20` lowers an ASCII letter and maps no other byte onto one.
        return trimmed.count == 4 && zip(trimmed, "nosj".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
