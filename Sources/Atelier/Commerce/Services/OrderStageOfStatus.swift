extension OrderStage {
    /// How an order's state is told to its customer (`NotificationMessage.orderUpdated`).
    init(_ status: Order.Status) {
        self = switch status {
        case .pendingPayment: .pendingPayment
        case .placed: .placed
        case .confirmed: .confirmed
        case .readyForPickup: .readyForPickup
        case .outForDelivery: .outForDelivery
        case .completed: .completed
        case .cancelled: .cancelled
        case .expired: .expired
        case .refunded: .refunded
        }
    }
}
