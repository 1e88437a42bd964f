import AtelierAPI
import Foundation
import OpenAPIRuntime

/// One thing that happened, as `LiveEvents` delivers it. Moment ids are lowercase, as in the
/// channel names (`moment:{id}`).
public enum LiveEvent: Sendable, Equatable {
    /// `photo.created` on a moment's channel. `canDelete` and `faves.mine` are neutral (false):
    /// the server sends one payload to everyone.
    case photoAdded(momentID: String, photo: Components.Schemas.MomentPhoto)
    /// `photo.deleted`.
    case photoDeleted(momentID: String, photoID: String)
    /// `comment.created` (on the moment, or on one of its photos: see `comment.photoId`).
    case commentAdded(momentID: String, comment: Components.Schemas.MomentComment)
    /// `fave.changed`: `targetID` is the moment itself or one of its photos.
    case favesChanged(momentID: String, targetID: String, count: Int)
    /// `notification.created` on the caller's inbox (always subscribed): fetch the inbox.
    case notification(momentID: String?)
    /// The server confirmed a subscription (after every connect).
    case subscribed(channel: String)
    /// The server would not subscribe this channel (404: no such moment, or not visible to you).
    case subscriptionRefused(channel: String, status: Int, detail: String)
    /// The connection came up or went down. After a reconnect the server sends each moment's
    /// events of the gap first (once each, in order), as long as it still keeps them (5 minutes).
    case connectionStateChanged(LiveConnectionState)
    /// Events of this channel were missed and are no longer kept: refetch what is on screen.
    case replayIncomplete(channel: String)
    /// An event this SDK does not know (or whose payload it could not read); `data` is its JSON.
    case unknown(event: String, channel: String, data: Data)
}

public enum LiveConnectionState: Sendable, Equatable {
    /// The server accepted the connection and spoke (subscriptions are being sent).
    case connected
    /// The connection failed or dropped; the next try comes after `delay`.
    case reconnecting(attempt: Int, delay: Duration)
}

/// How `LiveEvents` waits between connection attempts: exponential backoff with jitter, reset
/// once a connection works.
public struct LiveReconnectPolicy: Sendable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    public var multiplier: Double
    /// Each delay is shortened at random by up to this fraction (0...0.5), so clients dropped
    /// together do not all come back at the same moment.
    public var jitter: Double
    /// How often to send `{"type":"ping"}`; a connection that heard nothing (not even the pong)
    /// for a whole interval is closed and reconnected. nil: never.
    public var pingInterval: Duration?
    /// Waits between attempts (tests pass a function that records and returns at once).
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), multiplier: Double = 2,
        jitter: Double = 0.2, pingInterval: Duration? = .seconds(30),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
        self.jitter = min(max(jitter, 0), 0.5)
        self.pingInterval = pingInterval
        self.sleep = sleep
    }

    /// The wait before attempt `attempt` (1-based); `random` in 0..<1 picks the jitter.
    public func delay(forAttempt attempt: Int, random: Double = .random(in: 0..<1)) -> Duration {
        let exponential = initialDelay.seconds * pow(multiplier, Double(max(attempt, 1) - 1))
        let capped = min(exponential, maximumDelay.seconds)
        return .seconds(capped * (1 - jitter * random))
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Reads the server's messages (`Sources/Atelier/Notifications/Live/LiveSocket.swift`).
enum LiveMessageDecoder {
    private struct Envelope: Decodable {
        var type: String
        var channel: String?
        var event: String?
        var status: Int?
        var detail: String?
        var id: String?
    }

    private struct Payload<T: Decodable>: Decodable {
        var data: T
    }

    private struct PhotoDeleted: Decodable { var photoId: String }
    private struct FaveChanged: Decodable { var targetId: String; var count: Int }
    private struct NotificationCreated: Decodable { var momentId: String? }

    /// The event a message carries, or nil for protocol chatter (`ready`, `pong`, …) and junk.
    static func decode(_ text: String) -> LiveEvent? {
        decodeFrame(text)?.event
    }

    /// The event and, for a channel's event, its channel and id (to resume from after a reconnect).
    static func decodeFrame(_ text: String) -> (event: LiveEvent, channel: String?, id: String?)? {
        let bytes = Data(text.utf8)
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: bytes) else { return nil }
        if envelope.type == "event", let channel = envelope.channel, let name = envelope.event {
            return (event(name, on: channel, bytes), channel, envelope.id)
        }
        return decodeOther(envelope).map { ($0, nil, nil) }
    }

    private static func decodeOther(_ envelope: Envelope) -> LiveEvent? {
        switch envelope.type {
        case "replay-incomplete":
            return envelope.channel.map { .replayIncomplete(channel: $0) }
        case "subscribed":
            return envelope.channel.map { .subscribed(channel: $0) }
        case "refused":
            return .subscriptionRefused(
                channel: envelope.channel ?? "", status: envelope.status ?? 0, detail: envelope.detail ?? "")
        default:
            return nil
        }
    }

    private static func event(_ name: String, on channel: String, _ bytes: Data) -> LiveEvent {
        func payload<T: Decodable>(_: T.Type) -> T? {
            try? decoder.decode(Payload<T>.self, from: bytes).data
        }
        let momentID = channel.hasPrefix("moment:") ? String(channel.dropFirst("moment:".count)) : nil
        switch (name, momentID) {
        case ("photo.created", let id?):
            if let photo = payload(Components.Schemas.MomentPhoto.self) { return .photoAdded(momentID: id, photo: photo) }
        case ("photo.deleted", let id?):
            if let body = payload(PhotoDeleted.self) { return .photoDeleted(momentID: id, photoID: body.photoId) }
        case ("comment.created", let id?):
            if let comment = payload(Components.Schemas.MomentComment.self) { return .commentAdded(momentID: id, comment: comment) }
        case ("fave.changed", let id?):
            if let body = payload(FaveChanged.self) { return .favesChanged(momentID: id, targetID: body.targetId, count: body.count) }
        case ("notification.created", nil) where channel == "inbox":
            if let body = payload(NotificationCreated.self) { return .notification(momentID: body.momentId) }
        default:
            break
        }
        return .unknown(event: name, channel: channel, data: rawData(bytes))
    }

    private static var decoder: JSONDecoder { GeneratedJSON.decoder }

    private static func rawData(_ bytes: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any], let data = object["data"],
            let json = try? JSONSerialization.data(withJSONObject: data, options: [.fragmentsAllowed, .sortedKeys])
        else { return Data("null".utf8) }
        return json
    }

    static func command(_ type: String, channel: String? = nil, since: String? = nil) -> String {
        struct Command: Encodable { var type: String; var channel: String?; var since: String? }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(Command(type: type, channel: channel, since: since))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
