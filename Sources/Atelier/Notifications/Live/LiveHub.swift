import Foundation
import NIOConcurrencyHelpers

/// One event on a live channel, as it travels between instances and to clients. `data` is JSON
/// text (a message too large for a NOTIFY payload travels through `live_events`: `ClusterBus`).
struct LiveMessage: Codable, Sendable, Equatable {
    var channel: String
    var event: String
    var data: String
    /// Who caused it, so that people who blocked each other do not see each other's doings.
    var actorID: UUID?
    /// Given when published (time-ordered); a client that reconnects names the last one it got,
    /// and hears what it missed (`LiveHub.missed`).
    var id: UUID? = nil
}

/// Channel names: `moment:{id}` for a moment's album, `inbox:{userId}` for a person's notifications.
enum LiveChannel {
    static func moment(_ id: UUID) -> String { "moment:\(id.idString)" }
    static func inbox(_ userID: UUID) -> String { "inbox:\(userID.idString)" }

    /// A channel as a client named it, spelt as events are published (the id in lower case).
    static func canonical(_ name: String) -> String {
        let parts = name.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else { return name }
        return "\(parts[0]):\(id.idString)"
    }
}

/// The subscribers of this process, by channel. Delivery never waits for a slow client: each
/// subscription buffers its newest 256 events and drops older ones. The hub also keeps each
/// channel's events of the last `replayWindow` (at most `replayLimit`), for clients that
/// reconnect: every instance delivers every event, so each keeps the same ones.
final class LiveHub: Sendable {
    static let replayWindow: TimeInterval = 5 * 60
    static let replayLimit = 500

    private let subscribers = NIOLockedValueBox<[String: [UUID: AsyncStream<LiveMessage>.Continuation]]>([:])
    private let recent = NIOLockedValueBox<Recent>(Recent())

    private struct Recent {
        var events: [String: [(at: Date, message: LiveMessage)]] = [:]
        var deliveries = 0
    }

    func subscribe(_ channel: String) -> (id: UUID, events: AsyncStream<LiveMessage>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: LiveMessage.self, bufferingPolicy: .bufferingNewest(256))
        subscribers.withLockedValue { $0[channel, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(channel, id: id) }
        return (id, stream)
    }

    func unsubscribe(_ channel: String, id: UUID) {
        let removed = subscribers.withLockedValue { table -> AsyncStream<LiveMessage>.Continuation? in
            let continuation = table[channel]?.removeValue(forKey: id)
            if table[channel]?.isEmpty == true { table[channel] = nil }
            return continuation
        }
        removed?.finish()
    }

    func deliver(_ message: LiveMessage) {
        keep(message, now: Date())
        let targets = subscribers.withLockedValue { Array(($0[message.channel] ?? [:]).values) }
        for continuation in targets { continuation.yield(message) }
    }

    /// The channel's events after the one with id `after`, oldest first; nil when that event is
    /// no longer kept (the gap is too long: the client reloads instead).
    func missed(_ channel: String, after: UUID, now: Date = Date()) -> [LiveMessage]? {
        recent.withLockedValue { recent in
            let kept = (recent.events[channel] ?? []).filter { now.timeIntervalSince($0.at) <= Self.replayWindow }
            guard let index = kept.firstIndex(where: { $0.message.id == after }) else { return nil }
            return kept[(index + 1)...].map(\.message)
        }
    }

    private func keep(_ message: LiveMessage, now: Date) {
        guard message.id != nil else { return }
        recent.withLockedValue { recent in
            var events = recent.events[message.channel] ?? []
            events.append((now, message))
            if let stale = events.firstIndex(where: { now.timeIntervalSince($0.at) <= Self.replayWindow }), stale > 0 {
                events.removeFirst(stale)
            }
            if events.count > Self.replayLimit { events.removeFirst(events.count - Self.replayLimit) }
            recent.events[message.channel] = events
            // Now and then, forget channels that went quiet.
            recent.deliveries += 1
            if recent.deliveries % 1000 == 0 {
                recent.events = recent.events.filter { _, events in events.last.map { now.timeIntervalSince($0.at) <= Self.replayWindow } ?? false }
            }
        }
    }

    func subscriberCount(_ channel: String) -> Int {
        subscribers.withLockedValue { $0[channel]?.count ?? 0 }
    }
}

/// How a published event reaches every instance's hub. In one process (SQLite) the hub is the bus;
/// on PostgreSQL `ClusterBus` delivers locally, sends each message with `NOTIFY` and feeds what it
/// `LISTEN`s to from the other instances into its local hub.
protocol LiveBus: Sendable {
    func publish(_ message: LiveMessage) async
}

struct InProcessLiveBus: LiveBus {
    let hub: LiveHub
    func publish(_ message: LiveMessage) async { hub.deliver(message) }
}

/// What handlers use: publish after a change has committed; subscribe from the live socket.
struct LiveUpdates: Sendable {
    let hub: LiveHub
    let bus: any LiveBus

    init(hub: LiveHub = LiveHub(), bus: (any LiveBus)? = nil) {
        self.hub = hub
        self.bus = bus ?? InProcessLiveBus(hub: hub)
    }

    func publish(_ channel: String, event: String, data: some Encodable, actorID: UUID? = nil) async {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(data) else { return }
        await bus.publish(LiveMessage(channel: channel, event: event, data: String(decoding: json, as: UTF8.self), actorID: actorID, id: .v7()))
    }
}
