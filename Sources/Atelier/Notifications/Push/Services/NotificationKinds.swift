import Fluent
import Foundation

/// What each kind of notification is for delivery: whether events of it on one thing are grouped
/// into one push, and the channels it goes to unless the person says otherwise.
enum NotificationKinds {
    enum Channel: String, Sendable, CaseIterable { case push, email }

    /// Kinds whose bursts on one thing become one push ("Ana and 9 others reacted to your outfit").
    static let grouped: Set<InboxEntry.Kind> = [.reaction, .comment, .momentPhoto]

    /// How long a grouped push waits for more events of its burst before it goes.
    static let groupingWindow: TimeInterval = 60

    /// Every kind a person can set preferences for.
    static var all: [InboxEntry.Kind] { InboxEntry.Kind.allCases }

    /// Whether the person wants `kind` pushed: their saved choice, else the kind's default.
    static func pushWanted(_ kind: InboxEntry.Kind, by userID: UUID, on db: any Database) async throws -> Bool {
        let saved = try await NotificationPreference.query(on: db).filter(\.$userID == userID)
            .filter(\.$kind == kind.rawValue).filter(\.$channel == Channel.push.rawValue).first()
        return saved?.enabled ?? enabledByDefault(kind, .push)
    }

    static func enabledByDefault(_ kind: InboxEntry.Kind, _ channel: Channel) -> Bool {
        switch channel {
        case .push: true
        // Email is for account mail, receipts and digests (notifications.md).
        case .email: kind == .orderUpdated
        }
    }
}
