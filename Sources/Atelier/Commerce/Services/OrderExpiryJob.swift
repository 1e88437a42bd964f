import Foundation
import Logging

/// Every 30 s (the root schedules it): orders whose holds passed.
struct OrderExpiryJob: JobKind {
    static let name = "orders.expire"
    static let maxAttempts = 3
    static let logger = Logger(label: "atelier.jobs")

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        let expired = try await OrderService(db: context.db, core: context.core, live: context.parts.get(LiveUpdates.self)).expireDue()
        if expired > 0 { Self.logger.info("\(expired) orders expired: their holds passed.") }
    }
}
