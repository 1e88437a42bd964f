import Fluent

/// Issue 51: stores deliver to a list of postcodes (or within a radius, as before) and say how VAT
/// applies to their prices; each order line keeps the rate it was sold at, and each order whether
/// its prices included VAT and how much VAT it holds.
struct AddDeliveryPostcodesAndVAT: AsyncMigration {
    func prepare(on database: any Database) async throws {
        // One column per statement: SQLite adds one at a time.
        let settings = CommerceSettings.schema
        try await database.schema(settings).field("delivery_postcodes", .string, .required, .sql(.default(""))).update()
        try await database.schema(settings).field("prices_include_vat", .bool, .required, .sql(.default(true))).update()
        try await database.schema(settings).field("vat_rate_bp", .int, .required, .sql(.default(0))).update()
        try await database.schema(settings).field("category_vat_rates", .string, .required, .sql(.default(""))).update()
        try await database.schema(OrderLine.schema).field("vat_rate_bp", .int, .required, .sql(.default(0))).update()
        try await database.schema(Order.schema).field("prices_include_vat", .bool, .required, .sql(.default(true))).update()
        try await database.schema(Order.schema).field("vat_minor", .int, .required, .sql(.default(0))).update()
        try await database.schema(Order.schema).field("delivery_vat_rate_bp", .int, .required, .sql(.default(0))).update()
    }

    func revert(on database: any Database) async throws {
        for name in ["delivery_postcodes", "prices_include_vat", "vat_rate_bp", "category_vat_rates"] {
            try await database.schema(CommerceSettings.schema).deleteField(FieldKey(stringLiteral: name)).update()
        }
        try await database.schema(OrderLine.schema).deleteField("vat_rate_bp").update()
        try await database.schema(Order.schema).deleteField("prices_include_vat").update()
        try await database.schema(Order.schema).deleteField("vat_minor").update()
        try await database.schema(Order.schema).deleteField("delivery_vat_rate_bp").update()
    }
}
