import Fluent
import SQLKit

/// Connections apart from friendships (issue 51). Every friendship there is becomes a connection
/// too, so people who could invite each other to moments before still can.
struct CreateUserConnections: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(UserConnection.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("other_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "other_id")
            .create()
        try await Self.connectFriends(on: database)
    }

    /// Every friendship without its connection gets one (each row keeps its friendship's id and
    /// time). Running it again adds nothing.
    static func connectFriends(on database: any Database) async throws {
        let sql = database.sql
        try await sql.raw("""
            INSERT INTO \(ident: UserConnection.schema) (id, user_id, other_id, created_at)
            SELECT f.id, f.user_id, f.friend_id, f.created_at FROM \(ident: Friendship.schema) f
            WHERE NOT EXISTS (SELECT 1 FROM \(ident: UserConnection.schema) c WHERE c.user_id = f.user_id AND c.other_id = f.friend_id)
              AND NOT EXISTS (SELECT 1 FROM \(ident: UserConnection.schema) c WHERE c.id = f.id)
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UserConnection.schema).delete()
    }
}
