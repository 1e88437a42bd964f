import Fluent
import SQLKit

/// Trade customers, trade prices and case sizes on products, and sign-in-to-browse on stores.
struct CreateTradeCustomers: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Store.schema).field("members_only", .bool, .required, .sql(.default(false))).update()
        try await database.schema(Product.schema).field("trade_price_minor", .int).update()
        try await database.schema(Product.schema).field("case_size", .int, .required, .sql(.default(1))).update()
        try await database.schema(TradeCustomer.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("store_id", .uuid, .required, .references(Store.schema, "id", onDelete: .cascade))
            .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
            .field("company_name", .string, .required)
            .field("vat_number", .string, .required)
            .field("status", .string, .required)
            .field("created_at", .datetime, .required)
            .field("decided_at", .datetime)
            .field("decided_by", .uuid, .references(User.schema, "id", onDelete: .setNull))
            .unique(on: "store_id", "user_id")
            .create()
        try await database.sql.create(index: "trade_customers_user").on(TradeCustomer.schema).column("user_id").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(TradeCustomer.schema).delete()
        try await database.schema(Product.schema).deleteField("case_size").update()
        try await database.schema(Product.schema).deleteField("trade_price_minor").update()
        try await database.schema(Store.schema).deleteField("members_only").update()
    }
}
