import Fluent
import SQLKit

/// Orders handed over, their value, and clicks through to a product's shop, in the daily store stats.
struct AddSalesToStoreStats: AsyncMigration {
    func prepare(on database: any Database) async throws {
        for column in ["orders", "sales_minor", "shop_clicks"] {
            try await database.schema("store_daily_stats").field(.string(column), .int, .required, .sql(.default(0))).update()
        }
    }

    func revert(on database: any Database) async throws {
        for column in ["orders", "sales_minor", "shop_clicks"] {
            try await database.schema("store_daily_stats").deleteField(.key(.string(column))).update()
        }
    }
}
