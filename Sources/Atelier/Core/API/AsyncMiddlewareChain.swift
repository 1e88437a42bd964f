import Vapor

/// Runs several async middleware one inside the other in one task. Vapor runs each
/// `AsyncMiddleware` it is given in a task of its own, with a hop from the event loop to Swift's
/// executors and back; the API's six layers cost more than the cheapest operation itself
/// (docs/benchmarks.md, issue 19). Here each layer calls the next directly.
struct AsyncMiddlewareChain: AsyncMiddleware {
    let layers: [any AsyncMiddleware]

    init(_ layers: any AsyncMiddleware...) {
        self.layers = layers
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        try await Layer(layers: layers[...], last: next).respond(to: request)
    }

    /// As Vapor calls a middleware. Its default wraps `next` (the route) in a responder that starts
    /// a second task for the route's async closure and waits for it; an async route is called
    /// directly here, in the chain's own task.
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let last = next as? any AsyncResponder ?? AsyncBasicResponder { try await next.respond(to: $0).get() }
        let promise = request.eventLoop.makePromise(of: Response.self)
        promise.completeWithTask { try await respond(to: request, chainingTo: last) }
        return promise.futureResult
    }

    private struct Layer: AsyncResponder {
        let layers: ArraySlice<any AsyncMiddleware>
        let last: any AsyncResponder

        func respond(to request: Request) async throws -> Response {
            guard let first = layers.first else { return try await last.respond(to: request) }
            return try await first.respond(to: request, chainingTo: Layer(layers: layers.dropFirst(), last: last))
        }
    }
}
