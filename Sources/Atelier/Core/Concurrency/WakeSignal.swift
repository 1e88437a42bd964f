import NIOConcurrencyHelpers

/// Wakes a background loop early: `wait(upTo:)` returns when `signal()` is called or the time
/// passes, whichever comes first. A signal sent while nobody waits is kept for the next wait, so
/// work enqueued between two rounds is never slept through.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    func signal() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    func wait(upTo duration: Duration) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: duration)
            self?.signal()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLockedValue { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        state.withLockedValue { $0.pending = false }
    }
}
