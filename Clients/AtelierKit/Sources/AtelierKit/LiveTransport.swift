import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Opens WebSocket connections for `LiveEvents`. The SDK brings `URLSessionLiveTransport`;
/// tests and platforms without a working `URLSessionWebSocketTask` bring their own.
public protocol LiveTransport: Sendable {
    /// Opens a WebSocket to `url` (ws: or wss:) with these request headers, returning once the
    /// upgrade has succeeded. When the server answers the upgrade with an HTTP status instead,
    /// throw `LiveTransportError.rejected(status:)`, so a 401 is told apart from a network error.
    func connect(url: URL, headers: [String: String]) async throws -> any LiveTransportConnection
}

/// One open WebSocket carrying text messages.
public protocol LiveTransportConnection: Sendable {
    func send(_ text: String) async throws
    /// The next text message; nil (or an error) once the connection is closed.
    func receive() async throws -> String?
    /// Closes the connection; a `receive()` waiting meanwhile returns nil or throws. Must not block.
    func close()
}

public enum LiveTransportError: Error, Equatable, Sendable {
    /// The server answered the upgrade with this HTTP status (401: the access token was refused).
    case rejected(status: Int)
    /// This platform's Foundation cannot open WebSockets; pass another `LiveTransport`.
    case unsupported(String)
}

#if !canImport(FoundationNetworking)

/// WebSockets with `URLSessionWebSocketTask` (Apple platforms).
public struct URLSessionLiveTransport: LiveTransport {
    private let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func connect(url: URL, headers: [String: String]) async throws -> any LiveTransportConnection {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let connection = URLSessionLiveConnection(task: session.webSocketTask(with: request))
        connection.task.resume()
        // A ping is answered only once the upgrade went through: that is the moment of "connected".
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    connection.task.sendPing { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }
                }
            } onCancel: {
                connection.close()
            }
        } catch {
            connection.close()
            if let response = connection.task.response as? HTTPURLResponse, response.statusCode != 101 {
                throw LiveTransportError.rejected(status: response.statusCode)
            }
            throw error
        }
        return connection
    }
}

final class URLSessionLiveConnection: LiveTransportConnection, @unchecked Sendable {
    let task: URLSessionWebSocketTask

    init(task: URLSessionWebSocketTask) {
        self.task = task
    }

    func send(_ text: String) async throws {
        try await task.send(.string(text))
    }

    func receive() async throws -> String? {
        switch try await task.receive() {
        case .string(let text): return text
        case .data(let data): return String(decoding: data, as: UTF8.self)
        @unknown default: return ""
        }
    }

    func close() {
        task.cancel(with: .goingAway, reason: nil)
    }
}

#else

/// On Linux, `URLSessionWebSocketTask` needs a libcurl built with WebSocket support, which the
/// usual distributions lack: this transport refuses, so pass one of your own (for example on
/// WebSocketKit) to `liveEvents(moments:transport:)`.
public struct URLSessionLiveTransport: LiveTransport {
    public init() {}

    public func connect(url: URL, headers: [String: String]) async throws -> any LiveTransportConnection {
        throw LiveTransportError.unsupported(
            "URLSessionWebSocketTask does not work with this platform's Foundation (libcurl without WebSocket support); "
                + "pass a LiveTransport of your own, for example one built on WebSocketKit.")
    }
}

#endif

/// A value behind a lock, for the little state the live stream shares between tasks.
final class LiveLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
