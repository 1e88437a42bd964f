import Fluent
import SQLKit

struct CreatePushDelivery: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // Devices: APNs environment and app, Web Push keys, and the session that registered the
        // device (signing that session out removes it).
        // One column per statement: SQLite adds one at a time.
        for (field, type) in [("apns_environment", DatabaseSchema.DataType.string), ("bundle_id", .string), ("web_push_p256dh", .string),
                              ("web_push_auth", .string), ("session_family_id", .uuid)] {
            try await database.schema(Device.schema).field(FieldKey(stringLiteral: field), type).update()
        }
        try await database.schema(NotificationDelivery.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("inbox_entry_id", .uuid, .required, .references(InboxEntry.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("channel", .string, .required)
            .field("device_id", .uuid, .references(Device.schema, "id", onDelete: .setNull))
            .field("status", .string, .required)
            .field("reason", .string)
            .field("text", .string, .required)
            .field("link", .string, .required)
            .field("critical", .bool, .required)
            .field("group_key", .string)
            .field("open_group", .string)
            .field("actor_name", .string)
            .field("event_count", .int, .required)
            .field("deliver_at", .datetime, .required)
            .field("attempts", .int, .required)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("sent_at", .datetime)
            .unique(on: "device_id", "open_group")
            .create()
        let sql = database.sql
        try await sql.create(index: "notification_deliveries_user_idx").on(NotificationDelivery.schema).column("user_id").column("id").run()
        try await sql.create(index: "notification_deliveries_status_idx").on(NotificationDelivery.schema).column("status").column("updated_at").run()
        try await database.schema(NotificationPreference.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("kind", .string, .required)
            .field("channel", .string, .required)
            .field("enabled", .bool, .required)
            .unique(on: "user_id", "kind", "channel")
            .create()
        try await database.schema(QuietHoursSetting.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("start_minute", .int, .required)
            .field("end_minute", .int, .required)
            .field("time_zone", .string, .required)
            .unique(on: "user_id")
            .create()
    }

    func revert(on database: any Database) async throws {
        for schema in [QuietHoursSetting.schema, NotificationPreference.schema, NotificationDelivery.schema] {
            try await database.schema(schema).delete()
        }
        for field in ["apns_environment", "bundle_id", "web_push_p256dh", "web_push_auth", "session_family_id"] {
            try await database.schema(Device.schema).deleteField(FieldKey(stringLiteral: field)).update()
        }
    }
}
