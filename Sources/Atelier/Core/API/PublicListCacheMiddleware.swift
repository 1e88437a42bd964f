import Vapor

/// Whole answers of the public list reads that every signed-out visitor gets alike (the newest
/// products, a category's page, a product search), kept for a second or two (issue 9): a popular
/// page is then built and encoded once per period instead of once per request. Only signed-out
/// GETs without validators are served from it; any catalogue write clears it at once
/// (`AtelierServices.catalogChanged`). Like counts in a kept answer may lag by up to its lifetime.
/// It sits outside `ConditionalGETMiddleware`, so a kept answer carries its ETag.
struct PublicListCacheMiddleware: AsyncMiddleware {
    struct Answer: Sendable {
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    static let paths: Set<String> = ["/api/v1/products", "/api/v1/search/products"]

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let cache = request.atelier.publicListCache, request.method == .GET, Self.paths.contains(request.url.path),
            request.headers[.authorization].isEmpty, request.headers[.ifNoneMatch].isEmpty, request.headers[.ifModifiedSince].isEmpty
        else { return try await next.respond(to: request) }
        let key = request.url.string
        let now = request.atelier.clock.now()
        if let answer = cache.value(for: key, now: now) {
            return Response(status: .ok, headers: answer.headers, body: .init(buffer: answer.body))
        }
        let generation = cache.generation
        let response = try await next.respond(to: request)
        guard response.status == .ok, response.headers.contentType?.subType == "json",
            let body = try await response.body.collect(on: request.eventLoop).get()
        else { return response }
        response.body = .init(buffer: body)
        cache.store(Answer(headers: response.headers, body: body), for: key, generation: generation, now: now)
        return response
    }
}
