import NIOConcurrencyHelpers
import Vapor

/// Whole answers of the public catalogue reads that every signed-out visitor gets alike (the
/// newest products, a category's page, a product search, a product), kept for a second or two
/// (issue 9): a popular page is then built and encoded once per period instead of once per request.
/// Only signed-out GETs without validators are served from it, kept per URL and `Accept`; any
/// catalogue write clears it at once (`AtelierServices.catalogChanged`). Like counts in a kept
/// answer may lag by up to its lifetime. A handler whose answer has a side effect that must happen
/// on every read (a product's view count) records it with `Request.repeatWhenKept`; serving the
/// kept answer repeats it.
/// When an answer expires, the requests that arrive while it is being built again wait for that one
/// build instead of each building it (otherwise every expiry is a burst of identical work).
/// It sits outside `ConditionalGETMiddleware`, so a kept answer carries its ETag.
struct PublicListCacheMiddleware: AsyncMiddleware {
    struct Answer: Sendable {
        var headers: HTTPHeaders
        var body: ByteBuffer
        var onServe: (@Sendable (Request) async -> Void)?
    }

    static let paths: Set<String> = ["/api/v1/products", "/api/v1/search/products"]
    static let prefixes = ["/api/v1/products/"]

    static func isKept(_ path: String) -> Bool {
        // `/products/{id}` only, not its sub-resources.
        paths.contains(path) || prefixes.contains { path.hasPrefix($0) && !path.dropFirst($0.count).contains("/") }
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let cache = request.core.publicListCache, request.method == .GET, Self.isKept(request.url.path),
            request.headers[.authorization].isEmpty, request.headers[.ifNoneMatch].isEmpty, request.headers[.ifModifiedSince].isEmpty
        else { return try await next.respond(to: request) }
        // The answer depends on the URL and on what the client accepts (`text/html` alone is a 406).
        let key = request.url.string + "\u{0}" + request.headers[.accept].joined(separator: ",")
        let now = request.core.clock.now()
        if let answer = cache.value(for: key, now: now) {
            return await serve(answer, to: request)
        }
        let generation = cache.generation
        let promise = request.eventLoop.makePromise(of: Built?.self)
        let building = inFlight.withLockedValue { builds -> EventLoopFuture<Built?>? in
            if let other = builds[key] { return other }
            builds[key] = promise.futureResult
            return nil
        }
        if let building {
            promise.succeed(nil)
            // Only an answer built since the last catalogue write; otherwise build one here.
            if let built = try await building.get(), built.generation == cache.generation { return await serve(built.answer, to: request) }
            return try await next.respond(to: request)
        }
        var answer: Answer?
        defer {
            inFlight.withLockedValue { $0[key] = nil }
            promise.succeed(answer.map { Built(answer: $0, generation: generation) })
        }
        let response = try await next.respond(to: request)
        guard response.status == .ok, response.headers.isJSONAnswer,
            let body = try await response.body.collect(on: request.eventLoop).get()
        else { return response }
        response.body = .init(buffer: body)
        answer = Answer(headers: response.headers, body: body, onServe: request.storage[RepeatKey.self])
        cache.store(answer!, for: key, generation: generation, now: now)
        return response
    }

    /// An answer with the cache generation it was built in.
    private struct Built: Sendable {
        var answer: Answer
        var generation: Int
    }

    /// Answers being built, by key; others asking for the same wait for them.
    private let inFlight = NIOLockedValueBox<[String: EventLoopFuture<Built?>]>([:])

    private func serve(_ answer: Answer, to request: Request) async -> Response {
        await answer.onServe?(request)
        return Response(status: .ok, headers: answer.headers, body: .init(buffer: answer.body))
    }

    fileprivate struct RepeatKey: StorageKey { typealias Value = @Sendable (Request) async -> Void }
}

extension Request {
    /// A side effect of this read to repeat whenever its kept answer is served instead.
    func repeatWhenKept(_ effect: @escaping @Sendable (Request) async -> Void) {
        storage[PublicListCacheMiddleware.RepeatKey.self] = effect
    }
}
