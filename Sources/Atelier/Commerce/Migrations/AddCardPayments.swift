import Fluent
import SQLKit

/// Payment intents on orders, and the provider events already handled (webhooks are delivered
/// at least once; each event changes an order at most once).
struct AddCardPayments: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Order.schema).field("payment_intent_id", .string).update()
        try await database.schema(Order.schema).field("payment_client_secret", .string).update()
        let sql = database.sql
        try await sql.create(index: "orders_payment_intent").on(Order.schema).column("payment_intent_id").run()
        try await database.schema("payment_events")
            .field("event_id", .string, .identifier(auto: false))
            .field("received_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("payment_events").delete()
        try await database.schema(Order.schema).deleteField("payment_client_secret").update()
        try await database.schema(Order.schema).deleteField("payment_intent_id").update()
    }
}
