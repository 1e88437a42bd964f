import Fluent

/// Store applications (issue 51).
struct CreateStoreApplications: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(StoreApplication.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("applicant_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("street", .string, .required)
            .field("postal_code", .string, .required)
            .field("city", .string, .required)
            .field("lat", .double, .required)
            .field("lng", .double, .required)
            .field("about", .string, .required)
            .field("status", .string, .required)
            .field("decline_reason", .string)
            .field("store_id", .uuid, .references(Store.schema, "id", onDelete: .setNull))
            .field("decided_at", .datetime)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(StoreApplication.schema).delete()
    }
}
