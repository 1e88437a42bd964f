import Fluent
import Foundation
import SQLKit

/// One notification in a user's in-app inbox.
final class InboxEntry: Model, @unchecked Sendable {
    static let schema = "inbox_entries"

    enum Kind: String, Sendable, CaseIterable { case friendRequest, friendAccepted, reaction, comment, momentInvitation, momentPhoto, magazineIssue
        /// To admins: a store's last owner deleted their account.
        case storeWithoutOwner
        /// To a shopper: one of their orders changed state.
        case orderUpdated
        /// To store staff: a variant's availability fell to its low-stock threshold.
        case lowStock
        /// To a person: the outfit they planned for today, at 07:00 in their time zone.
        case outfitReminder
        /// To joined members: the moment starts within the hour.
        case momentStarting
        /// To a shopper: their reservation ends within three hours (critical).
        case reservationExpiring
        /// To someone away for 14 days.
        case weMissYou
        /// A day's new products from the stores a person follows, in one.
        case newFromFollowedStores
        /// A day's wishlist items back in stock or cheaper, in one.
        case wishlistChanges
        /// To admins: a message from the contact form.
        case feedback
        /// To admins: someone applied to open a store; to the applicant: the decision.
        case storeApplication
    }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "recipient_id") var recipientID: UUID
    @Field(key: "kind") var kind: String
    /// Who caused it (system notices have none). Entries go with the actor's account, since their
    /// text names them.
    @OptionalField(key: "actor_id") var actorID: UUID?
    @Field(key: "text") var text: String
    /// A deep link for the apps (`atelier://posts/{id}`).
    @Field(key: "link") var link: String
    /// The same place on the web, as a path.
    @Field(key: "web_path") var webPath: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "read_at") var readAt: Date?
    /// What `text` says, as data (JSON of `NotificationMessage`), so pushes can say it in their
    /// device's language. Absent on entries from before, and on admin notices.
    @OptionalField(key: "message") var messageJSON: String?

    var message: NotificationMessage? {
        messageJSON.flatMap { try? JSONDecoder().decode(NotificationMessage.self, from: Data($0.utf8)) }
    }

    init() {}
}

struct CreateInbox: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InboxEntry.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("recipient_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("actor_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("text", .string, .required)
            .field("link", .string, .required)
            .field("web_path", .string, .required)
            .field("created_at", .datetime, .required)
            .field("read_at", .datetime)
            .create()
        let sql = database.sql
        try await sql.create(index: "inbox_entries_recipient_idx").on(InboxEntry.schema).column("recipient_id").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InboxEntry.schema).delete()
    }
}

/// Notifications say what happened as data too (`InboxEntry.message`).
struct AddNotificationMessages: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InboxEntry.schema).field("message", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InboxEntry.schema).deleteField("message").update()
    }
}
