import NIOConcurrencyHelpers
import NIOWebSocket
import Vapor

/// The open live WebSockets of this process. A live socket never ends by itself, so shutdown
/// closes them (1012, service restart) while the server drains: clients reconnect to another instance
/// at once, and the process does not wait out `SHUTDOWN_DRAIN_SECONDS` for them.
final class LiveSocketRegistry: Sendable {
    private let sockets = NIOLockedValueBox<[ObjectIdentifier: WebSocket]>([:])

    func add(_ socket: WebSocket) {
        sockets.withLockedValue { $0[ObjectIdentifier(socket)] = socket }
    }

    func remove(_ socket: WebSocket) {
        _ = sockets.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(socket)) }
    }

    var count: Int { sockets.withLockedValue { $0.count } }

    /// RFC 6455's registry: 1012, "Service Restart" (the client may reconnect at once).
    static let serviceRestart = WebSocketErrorCode.unknown(1012)

    func closeAll() async {
        for socket in sockets.withLockedValue({ Array($0.values) }) {
            try? await socket.close(code: Self.serviceRestart)
        }
    }
}
