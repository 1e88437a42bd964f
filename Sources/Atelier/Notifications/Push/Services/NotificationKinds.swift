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
        try await wanted(kind, .push, by: userID, on: db)
    }

    /// Whether the person wants `kind` on `channel`: their saved choice, else the kind's default.
    static func wanted(_ kind: InboxEntry.Kind, _ channel: Channel, by userID: UUID, on db: any Database) async throws -> Bool {
        let saved = try await NotificationPreference.query(on: db).filter(\.$userID == userID)
            .filter(\.$kind == kind.rawValue).filter(\.$channel == channel.rawValue).first()
        return saved?.enabled ?? enabledByDefault(kind, channel)
    }

    /// How the settings page names a kind.
    static func label(_ kind: InboxEntry.Kind) -> String {
        switch kind {
        case .friendRequest: "Friend requests"
        case .friendAccepted: "Accepted friend requests"
        case .reaction: "Reactions to my posts"
        case .comment: "Comments on my posts"
        case .momentInvitation: "Invitations to moments"
        case .momentPhoto: "New photos in my moments"
        case .magazineIssue: "New magazine issues"
        case .storeWithoutOwner: "Stores left without an owner"
        case .orderUpdated: "My orders"
        case .lowStock: "Low stock in my stores"
        case .outfitReminder: "Morning outfit reminder"
        case .momentStarting: "Moments I joined, an hour before they start"
        case .reservationExpiring: "Reservations about to end"
        case .weMissYou: "What is new, after a while away"
        case .newFromFollowedStores: "Daily: new pieces from stores I follow"
        case .wishlistChanges: "Daily: my wishlist back in stock or cheaper"
        case .feedback: "Messages from the contact form"
        case .storeApplication: "Applications to open a store"
        }
    }

    /// Kinds only some people can receive are offered only to them.
    static func shown(_ kind: InboxEntry.Kind, to user: User) -> Bool {
        switch kind {
        case .storeWithoutOwner, .feedback: user.isAdmin
        default: true
        }
    }

    static func enabledByDefault(_ kind: InboxEntry.Kind, _ channel: Channel) -> Bool {
        switch channel {
        case .push: true
        // Email is for account mail, receipts and digests (notifications.md).
        case .email: [.orderUpdated, .newFromFollowedStores, .wishlistChanges].contains(kind)
        }
    }
}
