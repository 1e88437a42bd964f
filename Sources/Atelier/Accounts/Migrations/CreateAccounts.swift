import Fluent
import SQLKit

struct CreateAccounts: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("email", .string)
            .field("email_verified_at", .datetime)
            .field("pending_email", .string)
            .field("password_hash", .string)
            .field("display_name", .string, .required)
            .field("username", .string, .required)
            .field("about", .string)
            .field("birth_date", .string)
            .field("gender_preference", .string, .required)
            .field("home_lat", .double)
            .field("home_lng", .double)
            .field("home_city", .string)
            .field("radius_km", .int, .required)
            .field("locale", .string, .required)
            .field("time_zone", .string, .required)
            .field("is_editor", .bool, .required)
            .field("is_admin", .bool, .required)
            .field("suspended_at", .datetime)
            .field("sessions_valid_after", .datetime)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "email")
            .unique(on: "username")
            .create()

        try await database.schema(SessionFamily.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .field("last_used_at", .datetime, .required)
            .field("revoked_at", .datetime)
            .field("revoked_reason", .string)
            .create()

        try await database.schema(RefreshToken.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("family_id", .uuid, .required, .references(SessionFamily.schema, "id", onDelete: .cascade))
            .field("token_hash", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()

        try await database.schema(AccountToken.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("purpose", .string, .required)
            .field("token_hash", .string, .required)
            .field("email", .string, .required)
            .field("expires_at", .datetime, .required)
            .field("used_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "token_hash")
            .create()

        try await database.schema(Device.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("token", .string, .required)
            .field("platform", .string, .required)
            .field("app_version", .string)
            .field("locale", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "token")
            .create()

        try await database.schema(SocialIdentity.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("provider", .string, .required)
            .field("subject", .string, .required)
            .field("email", .string)
            .field("created_at", .datetime, .required)
            .unique(on: "provider", "subject")
            .create()

        guard let sql = database as? any SQLDatabase else { return }
        try await sql.create(index: "session_families_user_idx").on(SessionFamily.schema).column("user_id").run()
        try await sql.create(index: "refresh_tokens_family_idx").on(RefreshToken.schema).column("family_id").run()
        try await sql.create(index: "account_tokens_user_idx").on(AccountToken.schema).column("user_id").run()
        try await sql.create(index: "devices_user_idx").on(Device.schema).column("user_id").column("id").run()
        try await sql.create(index: "social_identities_user_idx").on(SocialIdentity.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        for schema in [SocialIdentity.schema, Device.schema, AccountToken.schema, RefreshToken.schema,
                       SessionFamily.schema, User.schema] {
            try await database.schema(schema).delete()
        }
    }
}
