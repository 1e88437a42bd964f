import Fluent
import Foundation

/// Commerce's part of an account's deletion (`AccountDeletion`): orders stay with their store without
/// the customer's id (open ones are cancelled first, so the stock they held returns), and the person's
/// reviews go, taking them out of the products' ratings.
enum CustomerDeletion {
    static func register(in parts: AccountParts, catalogChanges: CatalogChanges) {
        parts.onDeletion { userID, tx, now in
            try await ClosedAccountOrders.close(of: userID, on: tx, now: now)
            try await ReviewService.removeAll(of: userID, on: tx)
            return .init(afterCommit: { _ in await catalogChanges.announce() })
        }
    }
}
