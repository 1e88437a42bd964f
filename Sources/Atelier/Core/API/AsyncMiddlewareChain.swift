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

    private struct Layer: AsyncResponder {
        let layers: ArraySlice<any AsyncMiddleware>
        let last: any AsyncResponder

        func respond(to request: Request) async throws -> Response {
            guard let first = layers.first else { return try await last.respond(to: request) }
            return try await first.respond(to: request, chainingTo: Layer(layers: layers.dropFirst(), last: last))
        }
    }
}
