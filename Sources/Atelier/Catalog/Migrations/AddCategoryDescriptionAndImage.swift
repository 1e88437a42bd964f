import Fluent

/// Categories get a description and a picture (issue 51), which admins edit.
struct AddCategoryDescriptionAndImage: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time. No foreign key on the picture (SQLite
        // cannot add one to a table); a picture deleted since reads as none.
        try await database.schema(Category.schema).field("description", .string, .required, .sql(.default(""))).update()
        try await database.schema(Category.schema).field("image_media_id", .uuid).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(Category.schema).deleteField("image_media_id").update()
        try await database.schema(Category.schema).deleteField("description").update()
    }
}
