import NIOConcurrencyHelpers

/// Bytes that a producer pushes and a consumer pulls, with the consumer setting the pace: each
/// `send` returns only when the consumer has asked for the next chunk, so at most one chunk waits
/// in between however slow the reader (a phone downloading an album) is. The producer starts on
/// the first pull and is cancelled when the consumer goes away.
struct PulledBytes: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    typealias Send = @Sendable (ArraySlice<UInt8>) async throws -> Void

    let produce: @Sendable (_ send: @escaping Send) async throws -> Void

    func makeAsyncIterator() -> Iterator { Iterator(produce: produce) }

    struct Iterator: AsyncIteratorProtocol {
        private let gate = Gate()
        private var base: AsyncThrowingStream<ArraySlice<UInt8>, any Error>.AsyncIterator
        private let start: @Sendable () -> Void

        init(produce: @escaping @Sendable (@escaping Send) async throws -> Void) {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: ArraySlice<UInt8>.self)
            let gate = self.gate
            base = stream.makeAsyncIterator()
            let started = NIOLockedValueBox(false)
            start = {
                guard started.withLockedValue({ let was = $0; $0 = true; return !was }) else { return }
                let task = Task {
                    do {
                        try await produce { chunk in
                            try await gate.take()
                            continuation.yield(chunk)
                        }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in
                    task.cancel()
                    gate.close()
                }
            }
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            start()
            gate.grant()
            return try await base.next()
        }
    }

    /// Credits the consumer grants and the producer spends, one per chunk.
    final class Gate: Sendable {
        private struct State {
            var credits = 0
            var waiter: CheckedContinuation<Void, any Error>?
            var closed = false
        }

        private let state = NIOLockedValueBox(State())

        func grant() {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.credits += 1
                return nil
            }
            waiter?.resume()
        }

        func take() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLockedValue { state -> Result<Void, any Error>? in
                    if state.closed { return .failure(CancellationError()) }
                    if state.credits > 0 {
                        state.credits -= 1
                        return .success(())
                    }
                    state.waiter = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        }

        func close() {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                state.closed = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
