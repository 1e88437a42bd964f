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
/// subscription buffers its newest 256 events and drops older ones.
final class LiveHub: Sendable {
    private let subscribers = NIOLockedValueBox<[String: [UUID: AsyncStream<LiveMessage>.Continuation]]>([:])

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
        let targets = subscribers.withLockedValue { Array(($0[message.channel] ?? [:]).values) }
        for continuation in targets { continuation.yield(message) }
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
        await bus.publish(LiveMessage(channel: channel, event: event, data: String(decoding: json, as: UTF8.self), actorID: actorID))
    }
}
