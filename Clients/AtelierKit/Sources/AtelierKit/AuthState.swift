import AtelierAPI
import Foundation

/// Where the session stands, for an app's sign-in gate and its "refreshing…" or "signed out
/// elsewhere" messages.
public enum AuthState: Sendable, Equatable {
    /// Never signed in here, or signed out here.
    case signedOut
    /// Signed in; `me` is the account as the server last described it (nil for tokens stored by an
    /// older version of the SDK, until the next refresh).
    case signedIn(me: Components.Schemas.Me?)
    /// Getting a new access token; calls wait for it.
    case refreshing
    /// The server ended the session (its refresh token expired, or was used twice and revoked):
    /// sign in again.
    case expired
}

/// Every `authState` stream: each starts with the state now, then yields each change.
final class AuthStateBroadcast: Sendable {
    private struct Shared {
        var state: AuthState
        var subscribers: [UUID: AsyncStream<AuthState>.Continuation] = [:]
    }

    private let shared: LiveLocked<Shared>

    init(_ initial: AuthState) {
        shared = LiveLocked(Shared(state: initial))
    }

    var current: AuthState { shared.withLock { $0.state } }

    func stream() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream<AuthState>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        // The state now is yielded under the lock that publishes, so no change falls in between.
        shared.withLock { shared in
            continuation.yield(shared.state)
            shared.subscribers[id] = continuation
        }
        continuation.onTermination = { [shared] _ in shared.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        return stream
    }

    func publish(_ state: AuthState) {
        shared.withLock { shared in
            guard shared.state != state else { return }
            shared.state = state
            for continuation in shared.subscribers.values { continuation.yield(state) }
        }
    }
}
