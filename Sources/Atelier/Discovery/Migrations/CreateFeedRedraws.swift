import Fluent

/// The log of daily sort-key re-draws (the feeds refuse cursors from before the latest one).
struct CreateFeedRedraws: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(FeedRedraw.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("redrawn_at", .datetime, .required)
            .field("product_count", .int, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(FeedRedraw.schema).delete()
    }
}
