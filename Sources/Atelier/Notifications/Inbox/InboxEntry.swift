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
        let sql = database as! any SQLDatabase
        try await sql.create(index: "inbox_entries_recipient_idx").on(InboxEntry.schema).column("recipient_id").column("id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InboxEntry.schema).delete()
    }
}
