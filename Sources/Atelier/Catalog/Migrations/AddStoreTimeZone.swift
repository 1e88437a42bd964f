import Fluent

/// Stores keep their opening hours in their own time zone (for "open now").
struct AddStoreTimeZone: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Store.schema).field("time_zone", .string, .required, .sql(.default("UTC"))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Store.schema).deleteField("time_zone").update()
    }
}
