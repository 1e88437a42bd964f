import Foundation

/// What a push says, whatever the channel.
struct PushMessage: Sendable, Equatable {
    var kind: String
    var text: String
    /// The deep link the app opens (`atelier://posts/{id}`).
    var link: String
    /// The recipient's unread count.
    var badge: Int
    /// Pushes with one collapse id replace each other on the device (a group's latest count).
    var collapseID: String?
    /// The same place on the web, for browsers (`/posts/{id}`).
    var webPath: String? = nil
}

/// Where a push goes: a registered device.
struct PushTarget: Sendable {
    var platform: String
    var token: String
    var apnsEnvironment: String?
    var bundleID: String?
    var webPushP256dh: String?
    var webPushAuth: String?
    /// When the device was last registered (an APNs 410 only removes tokens older than its timestamp).
    var registeredAt: Date
}

/// How a provider answered.
enum PushResult: Sendable, Equatable {
    case sent(providerID: String?)
    /// The token is no longer valid; `since` is when the provider learnt so (APNs' timestamp).
    case unregistered(since: Date?)
    case badToken(reason: String)
    /// Busy or failing: try again, no sooner than `after` when the provider said.
    case retry(after: TimeInterval?, reason: String)
    /// The provider refused this push for a reason retrying cannot fix.
    case rejected(reason: String)
}

/// One push channel (APNs, FCM, Web Push).
protocol PushSender: Sendable {
    func send(_ message: PushMessage, to target: PushTarget) async throws -> PushResult
}
