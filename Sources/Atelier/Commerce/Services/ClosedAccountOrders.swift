import Fluent
import SQLKit
import Foundation

/// When a customer deletes their account, their open orders are cancelled (the stock they hold
/// returns, exactly once, through the same conditional move as any cancellation) before the
/// orders lose the customer's id. Completed orders stay with the store as its records.
enum ClosedAccountOrders {
    static let reason = "The customer closed their account."

    static func close(of userID: UUID, on tx: any Database, now: Date) async throws {
        let open: [Order.Status] = [.pendingPayment, .placed, .confirmed, .readyForPickup, .outForDelivery]
        let orders = try await Order.query(on: tx).filter(\.$userID == userID).filter(\.$status ~~ open.map(\.rawValue)).all()
        guard !orders.isEmpty else { return }
        // Lock every variant the orders hold in id order first, the order checkouts take them in.
        let lines = try await OrderLine.query(on: tx).filter(\.$orderID ~~ orders.map { $0.id! }).all()
        for variantID in Set(lines.compactMap(\.variantID)).sorted(by: { $0.uuidString < $1.uuidString }) {
            try await tx.sql.raw("UPDATE \(ident: ProductVariant.schema) SET held = held WHERE id = \(bind: variantID)").run()
        }
        for order in orders {
            _ = try await OrderMove.apply(order, to: .cancelled, actorID: nil, reason: reason, idChecked: false, on: tx, now: now)
        }
    }
}
