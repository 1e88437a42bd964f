import Fluent

/// A person may have the discover feed and search default to their shopping preferences.
struct AddPreferenceDefaults: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SizeProfile.schema)
            .field("default_to_preferences", .bool, .required, .sql(.default(false))).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(SizeProfile.schema).deleteField("default_to_preferences").update()
    }
}
