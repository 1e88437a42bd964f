import Fluent
import SQLKit

/// Store commerce settings, stock columns on variants, carts, orders with their lines and
/// history, per-store order numbers, and discount codes.
struct CreateCommerce: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // `stock` stays the count on hand; `held` and `allocated` are taken from it by orders.
        try await database.schema(ProductVariant.schema).field("held", .int, .required, .sql(.default(0))).update()
        try await database.schema(ProductVariant.schema).field("allocated", .int, .required, .sql(.default(0))).update()
        try await database.schema(ProductVariant.schema).field("low_stock_threshold", .int).update()
        try await database.schema(ProductVariant.schema).field("low_stock_alerted", .bool, .required, .sql(.default(false))).update()
        try await database.schema(ProductVariant.schema).field("gtin", .string).update()
        let sql = database.sql
        try await sql.create(index: "product_variants_gtin").on(ProductVariant.schema).column("gtin").run()

        try await database.schema(CommerceSettings.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("store_id", .uuid, .required, .references(Store.schema, "id", onDelete: .cascade))
            .field("ordering_enabled", .bool, .required)
            .field("reserve_enabled", .bool, .required)
            .field("reserve_hours", .int, .required)
            .field("reserve_max_items", .int, .required)
            .field("pickup_enabled", .bool, .required)
            .field("pickup_preparation_minutes", .int, .required)
            .field("delivery_enabled", .bool, .required)
            .field("delivery_radius_km", .double, .required)
            .field("delivery_fee_minor", .int, .required)
            .field("delivery_free_over_minor", .int)
            .field("pay_at_store", .bool, .required)
            .field("pay_by_card", .bool, .required)
            .field("pay_by_invoice", .bool, .required)
            .field("minimum_order_minor", .int, .required)
            .field("legal_age", .int)
            .field("restricted_category_ids", .string, .required)
            .field("require_id_check", .bool, .required)
            .field("sign_in_to_browse", .bool, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "store_id")
            .create()

        try await database.schema(Cart.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .references(User.schema, "id", onDelete: .cascade))
            .field("session_key", .string)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "user_id")
            .unique(on: "session_key")
            .create()

        // No unique (cart, variant): adding merges into the existing line, but checkout must
        // stay right even for two lines of one variant (Medusa #16502), so the schema allows it.
        try await database.schema(CartLine.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("cart_id", .uuid, .required, .references(Cart.schema, "id", onDelete: .cascade))
            .field("variant_id", .uuid, .required, .references(ProductVariant.schema, "id", onDelete: .cascade))
            .field("quantity", .int, .required)
            .field("seen_price_minor", .int, .required)
            .field("added_at", .datetime, .required)
            .create()
        try await sql.create(index: "cart_lines_cart").on(CartLine.schema).column("cart_id").run()

        try await database.schema("store_order_counters")
            .field("store_id", .uuid, .identifier(auto: false))
            .field("last_number", .int, .required)
            .create()

        try await database.schema(Order.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("store_id", .uuid, .required, .references(Store.schema, "id", onDelete: .cascade))
            // The store keeps its orders when the customer deletes their account (AccountDeletion
            // closes the open ones first); the customer's id goes.
            .field("user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("checkout_id", .uuid, .required)
            .field("number", .int, .required)
            .field("status", .string, .required)
            .field("fulfilment", .string, .required)
            .field("payment_method", .string, .required)
            .field("stock_state", .string, .required)
            .field("currency", .string, .required)
            .field("subtotal_minor", .int, .required)
            .field("discount_minor", .int, .required)
            .field("delivery_fee_minor", .int, .required)
            .field("total_minor", .int, .required)
            .field("discount_code", .string)
            .field("hold_until", .datetime)
            .field("delivery_address", .string)
            .field("cancel_reason", .string)
            .field("needs_id_check", .bool, .required)
            .field("id_checked", .bool, .required)
            .field("created_at", .datetime, .required)
            .field("updated_at", .datetime, .required)
            .unique(on: "store_id", "number")
            .create()
        try await sql.create(index: "orders_user").on(Order.schema).column("user_id").column("id").run()
        try await sql.create(index: "orders_store_status").on(Order.schema).column("store_id").column("status").column("id").run()
        try await sql.create(index: "orders_hold").on(Order.schema).column("stock_state").column("hold_until").run()

        try await database.schema(OrderLine.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("order_id", .uuid, .required, .references(Order.schema, "id", onDelete: .cascade))
            .field("product_id", .uuid, .references(Product.schema, "id", onDelete: .setNull))
            .field("variant_id", .uuid, .references(ProductVariant.schema, "id", onDelete: .setNull))
            .field("title", .string, .required)
            .field("size", .string, .required)
            .field("unit_price_minor", .int, .required)
            .field("quantity", .int, .required)
            .field("position", .int, .required)
            .create()
        try await sql.create(index: "order_lines_order").on(OrderLine.schema).column("order_id").run()
        try await sql.create(index: "order_lines_product").on(OrderLine.schema).column("product_id").run()

        try await database.schema(OrderEvent.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("order_id", .uuid, .required, .references(Order.schema, "id", onDelete: .cascade))
            .field("position", .int, .required)
            .field("from_status", .string)
            .field("to_status", .string, .required)
            .field("actor_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .field("reason", .string)
            .field("created_at", .datetime, .required)
            .create()
        try await sql.create(index: "order_events_order").on(OrderEvent.schema).column("order_id").run()

        try await database.schema(DiscountCode.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("store_id", .uuid, .required, .references(Store.schema, "id", onDelete: .cascade))
            .field("code", .string, .required)
            .field("kind", .string, .required)
            .field("value", .int, .required)
            .field("minimum_order_minor", .int, .required)
            .field("starts_at", .datetime)
            .field("ends_at", .datetime)
            .field("total_limit", .int)
            .field("per_customer_limit", .int)
            .field("used_count", .int, .required)
            .field("created_at", .datetime, .required)
            .unique(on: "store_id", "code")
            .create()

        try await database.schema(DiscountRedemption.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("code_id", .uuid, .required, .references(DiscountCode.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("order_id", .uuid, .required, .references(Order.schema, "id", onDelete: .cascade))
            .field("created_at", .datetime, .required)
            .create()
        try await sql.create(index: "discount_redemptions_code_user").on(DiscountRedemption.schema).column("code_id").column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        for table in [
            DiscountRedemption.schema, DiscountCode.schema, OrderEvent.schema, OrderLine.schema, Order.schema, "store_order_counters",
            CartLine.schema, Cart.schema, CommerceSettings.schema,
        ] {
            try await database.schema(table).delete()
        }
        for field in ["held", "allocated", "low_stock_threshold", "low_stock_alerted", "gtin"] {
            try await database.schema(ProductVariant.schema).deleteField(.key(.string(field))).update()
        }
    }
}
