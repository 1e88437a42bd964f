import Foundation

/// The order states and who may move an order from one to another (commerce.md, "Checkout and
/// orders"). Stock follows the state: cancelling or expiring releases it, handing over takes it
/// off the count on hand.
enum OrderStateMachine {
    enum Actor: Sendable, Equatable {
        case shopper(UUID)
        case staff(UUID)
        /// Deadlines and payments.
        case system

        var userID: UUID? {
            switch self {
            case .shopper(let id), .staff(let id): return id
            case .system: return nil
            }
        }
    }

    typealias Status = Order.Status

    /// Whether `actor` may move an order of `fulfilment` from `from` to `to`.
    static func allows(_ from: Status, _ to: Status, fulfilment: Order.Fulfilment, by actor: Actor) -> Bool {
        switch actor {
        case .shopper:
            return to == .cancelled && [.pendingPayment, .placed].contains(from)
        case .system:
            switch (from, to) {
            case (.pendingPayment, .placed): return true
            case (.pendingPayment, .expired): return true
            case (.placed, .expired), (.confirmed, .expired), (.readyForPickup, .expired): return fulfilment == .reserve
            default: return false
            }
        case .staff:
            switch (from, to) {
            case (.placed, .confirmed): return true
            case (.confirmed, .readyForPickup): return fulfilment != .delivery
            case (.confirmed, .outForDelivery): return fulfilment == .delivery
            case (.readyForPickup, .completed), (.outForDelivery, .completed): return true
            case (.completed, .refunded): return true
            case (let from, .cancelled): return ![.completed, .cancelled, .expired, .refunded].contains(from)
            default: return false
            }
        }
    }

    /// Where the order's stock is counted after moving to `to`.
    static func stockState(after to: Status, from current: Order.StockState, fulfilment: Order.Fulfilment) -> Order.StockState {
        switch to {
        case .cancelled, .expired: return current == .handedOver ? .handedOver : .released
        case .completed: return .handedOver
        case .placed where current == .held && fulfilment != .reserve: return .allocated
        default: return current
        }
    }

    /// The queue of the store's order list that a status belongs to.
    static func queue(of status: Status) -> String {
        switch status {
        case .pendingPayment, .placed: return "new"
        case .confirmed: return "confirmed"
        case .readyForPickup, .outForDelivery: return "ready"
        case .completed, .cancelled, .expired, .refunded: return "done"
        }
    }

    static func statuses(inQueue queue: String) -> [Status] {
        Status.allCases.filter { self.queue(of: $0) == queue }
    }
}
