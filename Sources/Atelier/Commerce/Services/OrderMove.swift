import Fluent
import Foundation
import SQLKit

/// One state change of an order, on the caller's transaction, after the caller decided it is
/// allowed: a conditional update of the order's row (`WHERE status = <as read>`), so of two racing
/// moves only one happens, then the stock effect that goes with it (release, handover), the
/// history entry and the customer's inbox entry.
enum OrderMove {
    static func apply(
        _ order: Order, to: Order.Status, actorID: UUID?, reason: String?, idChecked: Bool, on tx: any Database, now: Date
    ) async throws -> Order {
        let orderID = try order.requireID()
        let from = order.state
        let fulfilment = Order.Fulfilment(rawValue: order.fulfilment) ?? .pickup
        let before = Order.StockState(rawValue: order.stockState) ?? .released
        let after = OrderStateMachine.stockState(after: to, from: before, fulfilment: fulfilment)
        let moved = try await tx.sql.raw("""
            UPDATE \(ident: Order.schema) SET status = \(bind: to.rawValue), stock_state = \(bind: after.rawValue),
            updated_at = \(bind: now), cancel_reason = \(bind: to == .cancelled ? reason : order.cancelReason),
            id_checked = \(bind: order.idChecked || (to == .completed && idChecked)),
            hold_until = \(bind: after == .allocated ? nil : order.holdUntil)
            WHERE id = \(bind: orderID) AND status = \(bind: from.rawValue) AND stock_state = \(bind: before.rawValue)
            RETURNING id
            """).first()
        guard moved != nil else { throw Problem.conflict("Order \(order.number) changed meanwhile; reload it.", field: "to") }
        if before != after { try await moveStock(of: orderID, from: before, to: after, on: tx) }
        // Sales in the store's stats are orders handed over (and taken back when refunded), on the day it happened.
        if to == .completed || to == .refunded {
            let sign = to == .completed ? 1 : -1
            try await StoreStatsService.bump(
                storeID: order.storeID, day: StatsDay.string(now), orders: sign, salesMinor: sign * order.totalMinor, on: tx.sql)
        }
        guard let updated = try await Order.find(orderID, on: tx) else { throw Problem.notFound("order") }
        try await OrderHistory.record(updated, from: from, by: actorID, reason: reason, on: tx, now: now)
        return updated
    }

    /// Lines in variant-id order, the order checkouts take rows in, so the two never deadlock.
    private static func moveStock(of orderID: UUID, from before: Order.StockState, to after: Order.StockState, on tx: any Database) async throws {
        let lines = try await OrderLine.query(on: tx).filter(\.$orderID == orderID).all()
        let ledger = StockLedger(tx)
        for line in lines.sorted(by: { ($0.variantID?.uuidString ?? "") < ($1.variantID?.uuidString ?? "") }) {
            guard let variantID = line.variantID else { continue }
            switch (before, after) {
            case (.held, .released): try await ledger.release(line.quantity, of: variantID, from: .held)
            case (.allocated, .released): try await ledger.release(line.quantity, of: variantID, from: .allocated)
            case (.held, .handedOver): try await ledger.handOver(line.quantity, of: variantID, from: .held)
            case (.allocated, .handedOver): try await ledger.handOver(line.quantity, of: variantID, from: .allocated)
            case (.held, .allocated): try await ledger.moveHeldToAllocated(line.quantity, of: variantID)
            default: break
            }
        }
    }
}
