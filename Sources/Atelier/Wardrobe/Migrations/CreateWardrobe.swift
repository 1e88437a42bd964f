import Fluent
import SQLKit

/// The closet, wears, outfits with their pieces, and the calendar.
struct CreateWardrobe: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ClosetItem.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("owner_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("type", .string, .required)
            .field("type_guessed", .bool, .required)
            .field("size", .string)
            .field("colours", .string, .required)
            .field("colours_edited", .bool, .required)
            .field("pattern", .string)
            .field("brand_id", .uuid, .references(Brand.schema, "id", onDelete: .setNull))
            .field("brand_name", .string)
            .field("seasons", .string, .required)
            .field("tags", .string, .required)
            .field("notes", .string, .required)
            .field("price_minor", .int64)
            .field("currency", .string)
            .field("purchased_on", .string)
            .field("favourite", .bool, .required)
            .field("archived_at", .datetime)
            .field("archive_reason", .string)
            .field("product_id", .uuid, .references(Product.schema, "id", onDelete: .setNull))
            .field("order_line_id", .uuid)
            .field("photo_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("mask_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("cutout_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("cutout_status", .string, .required)
            .field("cutout_claimed_at", .datetime)
            .field("cutout_attempts", .int, .required)
            .field("wear_count", .int, .required)
            .field("last_worn_on", .string)
            .field("search_text", .string, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .create()
        try await database.schema(ClosetWear.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("item_id", .uuid, .required, .references(ClosetItem.schema, "id", onDelete: .cascade))
            .field("owner_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("worn_on", .string, .required)
            .field("outfit_id", .uuid)
            .field("created_at", .datetime, .required)
            .unique(on: "item_id", "worn_on")
            .create()
        try await database.schema(Outfit.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("owner_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("name", .string, .required)
            .field("occasion", .string)
            .field("visibility", .string, .required)
            .field("favourite", .bool, .required)
            .field("pinned_position", .int)
            .field("render_media_id", .uuid, .references(Media.schema, "id", onDelete: .setNull))
            .field("render_status", .string, .required)
            .field("render_claimed_at", .datetime)
            .field("render_attempts", .int, .required)
            .field("render_version", .int, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "owner_id", "pinned_position")
            .create()
        try await database.schema(OutfitPiece.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("outfit_id", .uuid, .required, .references(Outfit.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("closet_item_id", .uuid, .references(ClosetItem.schema, "id", onDelete: .cascade))
            .field("product_id", .uuid, .references(Product.schema, "id", onDelete: .cascade))
            .field("x", .double, .required)
            .field("y", .double, .required)
            .field("scale", .double, .required)
            .field("rotation", .double, .required)
            .field("z", .int, .required)
            .create()
        try await database.schema(OutfitPlan.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("owner_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("day", .string, .required)
            .field("outfit_id", .uuid, .required, .references(Outfit.schema, "id", onDelete: .cascade))
            .field("note", .string, .required)
            .field("worn_at", .datetime)
            .field("created_at", .datetime, .required)
            .unique(on: "owner_id", "day", "outfit_id")
            .create()

        let sql = database as! any SQLDatabase
        for statement in [
            "CREATE INDEX closet_items_owner ON closet_items (owner_id, id)",
            "CREATE INDEX closet_items_cutout_queue ON closet_items (cutout_status, created_at)",
            "CREATE INDEX closet_wears_owner_day ON closet_wears (owner_id, worn_on)",
            "CREATE INDEX outfits_owner ON outfits (owner_id, id)",
            "CREATE INDEX outfits_render_queue ON outfits (render_status, updated_at)",
            "CREATE INDEX outfit_pieces_outfit ON outfit_pieces (outfit_id, position)",
            "CREATE INDEX outfit_pieces_item ON outfit_pieces (closet_item_id)",
            "CREATE INDEX outfit_plans_owner_day ON outfit_plans (owner_id, day)",
        ] {
            try await sql.raw(SQLQueryString(statement)).run()
        }
    }

    func revert(on database: any Database) async throws {
        for schema in [OutfitPlan.schema, OutfitPiece.schema, Outfit.schema, ClosetWear.schema, ClosetItem.schema] {
            try await database.schema(schema).delete()
        }
    }
}
