import Vapor

/// Pages go out gzip-compressed to browsers that accept it: a product page's HTML shrinks to about a
/// fifth on a phone's network (issue 53). The server's compressor is off by default (API answers opt
/// in by size in `ConditionalGETMiddleware`); this opts every HTML page in.
struct WebCompressionMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        if response.headers.contentType?.subType == "html" { Self.compress(response) }
        return response
    }

    static func compress(_ response: Response) {
        response.headers.responseCompression = .enable
        response.headers.replaceOrAdd(name: .vary, value: "Accept-Encoding")
    }
}
