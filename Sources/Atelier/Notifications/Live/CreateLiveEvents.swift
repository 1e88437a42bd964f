import Fluent
import SQLKit

/// Messages between instances too large for a NOTIFY payload (`ClusterBus`): the notification
/// carries the id, the listeners read the row. Kept `ClusterBus.storedLifetime`, then pruned by
/// housekeeping. Only PostgreSQL writes to it; the table exists on SQLite too, so that both have
/// the same migrations.
enum LiveEventRecord {
    static let table = "live_events"
}

struct CreateLiveEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let sql = database.sql
        if sql.dialect.name == "postgresql" {
            // Unlogged: no write-ahead log for rows that live a few minutes (a crash empties the
            // table, which loses nothing a listener still needs; replicas never read it).
            try await sql.raw("""
                CREATE UNLOGGED TABLE \(ident: LiveEventRecord.table) (
                    id UUID PRIMARY KEY, payload TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)
                """).run()
        } else {
            try await database.schema(LiveEventRecord.table)
                .field("id", .uuid, .identifier(auto: false))
                .field("payload", .string, .required)
                .field("created_at", .datetime, .required)
                .create()
        }
        try await sql.create(index: "live_events_created_idx").on(LiveEventRecord.table).column("created_at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(LiveEventRecord.table).delete()
    }
}
