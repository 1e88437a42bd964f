import Fluent
import SQLKit

/// Likes of outfits (issue 51), for the heart on an outfit and for trending outfits. They go with
/// the outfit or the person (cascades).
struct CreateOutfitLikes: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OutfitLike.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("outfit_id", .uuid, .required, .references(Outfit.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "outfit_id", "user_id")
            .create()
        let sql = database.sql
        // Trending reads this week's likes; the account export and deletion read a person's.
        try await sql.create(index: "outfit_likes_created_idx").on(OutfitLike.schema).column("created_at").run()
        try await sql.create(index: "outfit_likes_user_idx").on(OutfitLike.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OutfitLike.schema).delete()
    }
}
