import AtelierAPI
import Foundation

/// Live updates of some moments (and the caller's inbox) as an `AsyncSequence`:
///
///     for try await event in session.liveEvents(moments: [moment.id]) {
///         switch event {
///         case .photoAdded(_, let photo): album.insert(photo)
///         case .replayIncomplete: try await album.reload()  // a gap longer than the server keeps
///         default: break
///         }
///     }
///
/// Iterating opens a WebSocket to `GET /api/v1/live`, subscribes every moment, and yields what
/// arrives. A dropped connection is reopened (with a fresh access token) and resubscribed after
/// an exponential backoff with jitter (`LiveReconnectPolicy`), until the iterating task is
/// cancelled or leaves the loop, which closes the socket. The sequence ends with an error only
/// when retrying cannot help: signed out, a 401 even with a refreshed token, or another 4xx.
public struct LiveEvents: AsyncSequence, Sendable {
    public typealias Element = LiveEvent
    /// A valid access token. `rejected` is the token the server just refused (401): return a
    /// refreshed one; nil on an ordinary (re)connect.
    public typealias AccessTokenProvider = @Sendable (_ rejected: String?) async throws -> String

    private let url: URL?
    private let channels: [String]
    private let transport: any LiveTransport
    private let policy: LiveReconnectPolicy
    private let accessToken: AccessTokenProvider

    /// - Parameters:
    ///   - url: the live endpoint, `ws(s)://{host}/api/v1/live`.
    ///   - moments: ids of the moments to follow; the inbox comes without asking.
    public init(
        url: URL, moments: [String], transport: any LiveTransport, policy: LiveReconnectPolicy = .init(),
        accessToken: @escaping AccessTokenProvider
    ) {
        self.init(optionalURL: url, moments: moments, transport: transport, policy: policy, accessToken: accessToken)
    }

    init(
        optionalURL url: URL?, moments: [String], transport: any LiveTransport, policy: LiveReconnectPolicy,
        accessToken: @escaping AccessTokenProvider
    ) {
        var seen = Set<String>()
        self.url = url
        self.channels = moments.map { "moment:\($0.lowercased())" }.filter { seen.insert($0).inserted }
        self.transport = transport
        self.policy = policy
        self.accessToken = accessToken
    }

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LiveEvent.self)
        let task = Task { await run(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return Iterator(base: stream.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<LiveEvent, any Error>.Iterator

        public mutating func next() async throws -> LiveEvent? {
            try await base.next()
        }
    }

    // MARK: - The connection loop

    private func run(_ out: AsyncThrowingStream<LiveEvent, any Error>.Continuation) async {
        do {
            guard let url = Self.webSocketURL(url) else {
                throw LiveTransportError.unsupported("The session's server URL is unknown; use LiveEvents(url:…).")
            }
            var attempt = 0
            var rejected: String?  // the token that just got a 401, to be replaced once
            let marks = LiveLocked(ChannelMarks())
            while !Task.isCancelled {
                var token: String?
                do {
                    let fresh = try await accessToken(rejected)
                    token = fresh
                    let connection = try await transport.connect(url: url, headers: ["Authorization": "Bearer \(fresh)"])
                    rejected = nil
                    if await serve(connection, out, marks: marks) { attempt = 0 }
                } catch LiveTransportError.rejected(let status) {
                    if status == 401, rejected == nil {
                        rejected = token
                        continue  // once, at once, with a refreshed token
                    }
                    if (400..<500).contains(status), status != 408, status != 429 {
                        throw LiveTransportError.rejected(status: status)
                    }
                } catch let error as LiveTransportError {
                    throw error
                } catch AtelierError.signedOut {
                    throw AtelierError.signedOut
                } catch {
                    // A network failure (connecting, or refreshing the token): try again below.
                }
                if Task.isCancelled { break }
                attempt += 1
                let delay = policy.delay(forAttempt: attempt)
                out.yield(.connectionStateChanged(.reconnecting(attempt: attempt, delay: delay)))
                try await policy.sleep(delay)
            }
            out.finish()
        } catch {
            if Task.isCancelled { out.finish() } else { out.finish(throwing: error) }
        }
    }

    /// Subscribes and reads until the connection ends. True when the server said anything, i.e.
    /// the connection worked (which resets the backoff).
    private func serve(
        _ connection: any LiveTransportConnection, _ out: AsyncThrowingStream<LiveEvent, any Error>.Continuation,
        marks: LiveLocked<ChannelMarks>
    ) async -> Bool {
        let heard = LiveLocked(false)
        let spoke = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self, returning: Bool.self) { group in
                if let interval = policy.pingInterval {
                    group.addTask { await Self.keepAlive(connection, every: interval, heard: heard) }
                }
                var spoke = false
                do {
                    for channel in channels {
                        let since = marks.withLock { $0.last[channel] }
                        try await connection.send(LiveMessageDecoder.command("subscribe", channel: channel, since: since))
                    }
                    while !Task.isCancelled, let text = try await connection.receive() {
                        heard.withLock { $0 = true }
                        if !spoke {
                            spoke = true
                            out.yield(.connectionStateChanged(.connected))
                        }
                        guard let frame = LiveMessageDecoder.decodeFrame(text) else { continue }
                        if let channel = frame.channel, let id = frame.id, !marks.withLock({ $0.first(id, on: channel) }) { continue }
                        out.yield(frame.event)
                    }
                } catch {
                    // Dropped; the caller reconnects.
                }
                connection.close()
                group.cancelAll()
                return spoke
            }
        } onCancel: {
            connection.close()
        }
        return spoke
    }

    /// Per channel, the last event id heard (sent as `since` when resubscribing) and the recent
    /// ids, so that an event heard live and again in a replay is yielded once.
    struct ChannelMarks {
        static let remembered = 512
        var last: [String: String] = [:]
        var recent: [String: [String]] = [:]

        /// True the first time `id` is heard on `channel`.
        mutating func first(_ id: String, on channel: String) -> Bool {
            var ids = recent[channel] ?? []
            guard !ids.contains(id) else { return false }
            ids.append(id)
            if ids.count > Self.remembered { ids.removeFirst(ids.count - Self.remembered) }
            recent[channel] = ids
            last[channel] = id
            return true
        }
    }

    /// Pings every `interval`; closes the connection when a whole interval passed in silence.
    private static func keepAlive(_ connection: any LiveTransportConnection, every interval: Duration, heard: LiveLocked<Bool>) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            let alive = heard.withLock { value in
                defer { value = false }
                return value
            }
            guard alive else { return connection.close() }
            try? await connection.send(LiveMessageDecoder.command("ping"))
        }
    }

    /// http(s) becomes ws(s); other schemes are kept.
    static func webSocketURL(_ url: URL?) -> URL? {
        guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: break
        }
        return components.url
    }
}

extension AtelierSession {
    /// Live events of these moments and of the caller's inbox, with the session's tokens
    /// (refreshed as needed on every connect). On Linux pass a `transport`: the default one
    /// works on Apple platforms only.
    public func liveEvents(
        moments: [String], transport: any LiveTransport = URLSessionLiveTransport(), policy: LiveReconnectPolicy = .init()
    ) -> LiveEvents {
        let tokens = self.tokens
        return LiveEvents(
            url: baseURL.appendingPathComponent("api/v1/live"), moments: moments, transport: transport, policy: policy
        ) { rejected in
            try await tokens.liveAccessToken(rejected: rejected)
        }
    }
}

extension TokenManager {
    /// An access token for a new live connection: the stored one while it has a minute to go,
    /// otherwise (or when the server refused `rejected`) a refreshed one.
    func liveAccessToken(rejected: String?, now: Date = Date()) async throws -> String {
        guard let tokens = try await current() else { throw AtelierError.signedOut }
        if let rejected { return try await accessToken(replacing: rejected) }
        if tokens.accessTokenExpiresAt.timeIntervalSince(now) > TokenManager.refreshLeeway { return tokens.accessToken }
        return try await accessToken(replacing: tokens.accessToken)
    }
}
