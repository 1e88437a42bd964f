import Foundation

/// What one instance tells the others (issue 22).
enum ClusterEvent: Sendable, Equatable {
    /// A live event, for this instance's subscribers of its channel.
    case live(LiveMessage)
    /// A catalogue write committed: what the catalogue caches keep may be stale.
    case catalogChanged
}

/// One message between instances, as NOTIFY carries it (JSON with short keys: a payload is
/// limited). `sequence` numbers an instance's messages; it also keeps two equal messages sent in
/// one transaction apart (PostgreSQL folds identical notifications of a transaction into one).
struct ClusterEnvelope: Codable, Sendable, Equatable {
    var origin: UUID
    var sequence: UInt64
    var live: LiveMessage?
    var catalogChanged: Bool?
    /// The whole message is in `live_events` under this id.
    var stored: UUID?

    enum CodingKeys: String, CodingKey {
        case origin = "o", sequence = "n", live = "l", catalogChanged = "c", stored = "s"
    }

    init(origin: UUID, sequence: UInt64, event: ClusterEvent) {
        self.origin = origin
        self.sequence = sequence
        switch event {
        case .live(let message): live = message
        case .catalogChanged: catalogChanged = true
        }
    }

    init(origin: UUID, sequence: UInt64, stored: UUID) {
        self.origin = origin
        self.sequence = sequence
        self.stored = stored
    }

    var event: ClusterEvent? {
        if let live { return .live(live) }
        if catalogChanged == true { return .catalogChanged }
        return nil
    }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ text: String) -> ClusterEnvelope? {
        try? JSONDecoder().decode(ClusterEnvelope.self, from: Data(text.utf8))
    }
}
