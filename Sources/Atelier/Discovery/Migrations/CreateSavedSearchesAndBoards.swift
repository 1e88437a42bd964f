import Fluent
import SQLKit

/// Saved searches (followed filter sets) and lookbook boards with their items.
struct CreateSavedSearchesAndBoards: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(SavedSearch.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("query", .string, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "user_id", "name")
            .create()
        try await database.schema(Board.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("is_public", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id", "name")
            .create()
        try await database.schema(BoardItem.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("board_id", .uuid, .required, .references(Board.schema, "id", onDelete: .cascade))
            .field("product_id", .uuid, .required, .references(Product.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .unique(on: "board_id", "product_id")
            .create()
        let sql = database.sql
        try await sql.create(index: "board_items_board_idx").on(BoardItem.schema).column("board_id").column("id").run()
        try await sql.create(index: "board_items_product_idx").on(BoardItem.schema).column("product_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(BoardItem.schema).delete()
        try await database.schema(Board.schema).delete()
        try await database.schema(SavedSearch.schema).delete()
    }
}
