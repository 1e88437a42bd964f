/// What a person is told about their order, stage by stage: the vocabulary of order notifications.
/// Commerce maps each of its order states to one (`OrderStage.init(_: Order.Status)`), so a new state
/// does not compile there until it is worded here. The raw values are what inbox rows keep.
enum OrderStage: String, Codable, Sendable, CaseIterable {
    case pendingPayment, placed, confirmed, readyForPickup, outForDelivery, completed, cancelled, expired, refunded

    /// Stages whose email is the order's receipt, which Commerce sends itself: no notification email.
    var hasReceipt: Bool { self == .placed || self == .pendingPayment }
}
