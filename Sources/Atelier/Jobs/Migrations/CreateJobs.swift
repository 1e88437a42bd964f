import Fluent
import SQLKit

struct CreateJobs: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Job.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("key", .string, .required)
            .field("payload", .string, .required)
            .field("status", .string, .required)
            .field("run_at", .datetime, .required)
            .field("attempts", .int, .required)
            .field("max_attempts", .int, .required)
            .field("lease_id", .uuid)
            .field("lease_until", .datetime)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .field("finished_at", .datetime)
            .unique(on: "key")
            .create()
        let sql = database.sql
        // Due jobs in run-at order; running ones by lease end (to take back those of dead workers).
        try await sql.create(index: "jobs_due_idx").on(Job.schema).column("status").column("run_at").run()
        try await sql.create(index: "jobs_lease_idx").on(Job.schema).column("status").column("lease_until").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Job.schema).delete()
    }
}
