import NIOConcurrencyHelpers
import NIOCore

/// An answer's body as its handler wrote it whole, kept for `ConditionalGETMiddleware` (issue 19).
/// OpenAPIVapor hands every body to Vapor as a stream, and reading one back to tag it starts a task
/// and hops to the event loop and back for each chunk. `JSONBytesTransport` writes its answers
/// whole, so it leaves them here as well, and the middleware takes them as they are.
final class WrittenAnswer: @unchecked Sendable {
    /// Set by `ConditionalGETMiddleware` around the layers inside it, for one request. Only that
    /// request's handler writes it, before the middleware, which awaits the handler, reads it.
    @TaskLocal static var current: WrittenAnswer?

    var body: ByteBuffer?
}

/// How many tagged answers `ConditionalGETMiddleware` took as written and how many it read back
/// from their stream: the second is the slow path, and a test checks that the first is taken.
final class WrittenAnswerCounts: Sendable {
    private let counts = NIOLockedValueBox((taken: 0, collected: 0))

    var taken: Int { counts.withLockedValue { $0.taken } }
    var collected: Int { counts.withLockedValue { $0.collected } }

    func count(taken: Bool) {
        counts.withLockedValue { if taken { $0.taken += 1 } else { $0.collected += 1 } }
    }
}
