import Fluent
import Foundation
import SQLKit

/// Every change of a variant's `held`, `allocated` and `stock` columns, as conditional updates on
/// the caller's transaction. Taking stock succeeds only while `stock − held − allocated` covers the
/// quantity, in one statement, so no interleaving of checkouts can take more than there is (on
/// PostgreSQL the update locks the row until commit; callers take rows in id order, so two
/// checkouts never wait on each other in a cycle).
struct StockLedger {
    enum Bucket: String { case held, allocated }

    let sql: any SQLDatabase

    init(_ tx: any Database) { sql = tx.sql }

    /// Takes `quantity` into `bucket`; false (and nothing changed) when fewer are available.
    func take(_ quantity: Int, of variantID: UUID, into bucket: Bucket) async throws -> Bool {
        let row = try await sql.raw("""
            UPDATE \(ident: ProductVariant.schema) SET \(ident: bucket.rawValue) = \(ident: bucket.rawValue) + \(bind: quantity)
            WHERE id = \(bind: variantID) AND stock - held - allocated >= \(bind: quantity) RETURNING id
            """).first()
        return row != nil
    }

    /// Gives back what an order took (cancelled, expired). Callers make sure it happens once per
    /// order by changing the order's `stock_state` conditionally first.
    func release(_ quantity: Int, of variantID: UUID, from bucket: Bucket) async throws {
        try await sql.raw("""
            UPDATE \(ident: ProductVariant.schema) SET \(ident: bucket.rawValue) = \(ident: bucket.rawValue) - \(bind: quantity),
            low_stock_alerted = CASE WHEN low_stock_threshold IS NOT NULL
                AND stock - held - allocated + \(bind: quantity) > low_stock_threshold THEN \(bind: false) ELSE low_stock_alerted END
            WHERE id = \(bind: variantID)
            """).run()
    }

    /// The goods left the shop: they come off the count on hand and out of `bucket`.
    func handOver(_ quantity: Int, of variantID: UUID, from bucket: Bucket) async throws {
        try await sql.raw("""
            UPDATE \(ident: ProductVariant.schema) SET stock = stock - \(bind: quantity),
            \(ident: bucket.rawValue) = \(ident: bucket.rawValue) - \(bind: quantity) WHERE id = \(bind: variantID)
            """).run()
    }

    /// A paid card order: its hold becomes an allocation.
    func moveHeldToAllocated(_ quantity: Int, of variantID: UUID) async throws {
        try await sql.raw("""
            UPDATE \(ident: ProductVariant.schema) SET held = held - \(bind: quantity), allocated = allocated + \(bind: quantity)
            WHERE id = \(bind: variantID)
            """).run()
    }

    /// Marks the variant alerted when its availability is at or below its threshold and it was not
    /// alerted yet; true exactly once per crossing, so staff hear of it once.
    func crossedLowStock(_ variantID: UUID) async throws -> Bool {
        let row = try await sql.raw("""
            UPDATE \(ident: ProductVariant.schema) SET low_stock_alerted = \(bind: true)
            WHERE id = \(bind: variantID) AND low_stock_alerted = \(bind: false) AND low_stock_threshold IS NOT NULL
            AND stock - held - allocated <= low_stock_threshold RETURNING id
            """).first()
        return row != nil
    }
}
