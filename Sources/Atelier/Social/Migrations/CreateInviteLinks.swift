import Fluent

/// Invite links (issue 51).
struct CreateInviteLinks: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(InviteLink.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("token_hash", .string, .required)
            .field("inviter_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("expires_at", .datetime, .required)
            .field("used_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("used_at", .datetime)
            .unique(on: "token_hash")
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(InviteLink.schema).delete()
    }
}
