import Fluent
import Foundation

/// Tells a store's staff once when a variant runs low (the crossing is detected by
/// `StockLedger.crossedLowStock`), in the transaction that took the stock.
enum LowStockAlerts {
    struct Crossing: Sendable {
        var storeID: UUID
        var productTitle: String
        var size: String
    }

    /// Records the inbox entries; returns who got one, to announce after commit.
    static func record(_ crossings: [Crossing], on tx: any Database, now: Date) async throws -> [UUID] {
        var recipients: [UUID] = []
        for crossing in crossings {
            let members = try await StoreMember.query(on: tx).filter(\.$store.$id == crossing.storeID).all()
            let store = crossing.storeID.idString
            for member in members {
                try await InboxService.record(
                    .init(
                        recipientID: member.$user.id, kind: .lowStock, actorID: nil,
                        message: .lowStock(product: crossing.productTitle, size: crossing.size),
                        link: "atelier://stores/\(store)/stock", webPath: "/portal/stores/\(store)/stock"),
                    on: tx, now: now)
                recipients.append(member.$user.id)
            }
        }
        return recipients
    }
}
