import Fluent
import Foundation

/// "Your reservation at Nord ends in 3 hours" to the shopper, critical (through quiet hours and
/// push opt-outs: missing it loses the items). Reservations held for more than three hours get one
/// job each, keyed by the order and its hold, so a warning goes once (again if the hold moves).
struct ReservationExpiryWarnings {
    let db: any Database
    let core: CoreServices

    static let lead: TimeInterval = 3 * 3600
    static let open: [Order.Status] = [.placed, .confirmed, .readyForPickup]

    func scheduleDue() async throws {
        let now = core.clock.now()
        let ending = try await Order.query(on: db).filter(\.$fulfilment == Order.Fulfilment.reserve.rawValue)
            .filter(\.$status ~~ Self.open.map(\.rawValue)).filter(\.$userID != nil)
            .filter(\.$holdUntil > now).filter(\.$holdUntil <= now.addingTimeInterval(Self.lead)).limit(500).all()
        for order in ending {
            guard let holdUntil = order.holdUntil, order.createdAt <= holdUntil.addingTimeInterval(-Self.lead) else { continue }
            let id = try order.requireID()
            try await JobQueue.enqueue(
                ReservationExpiringJob.self, .init(orderID: id, holdUntil: holdUntil),
                key: "reservation-expiring:\(id.idString)@\(Int(holdUntil.timeIntervalSince1970))", runAt: now, on: db, now: now)
        }
    }
}

struct ReservationExpiringJob: JobKind {
    struct Payload: Codable, Sendable {
        var orderID: UUID
        var holdUntil: Date
    }
    static let name = "orders.reservation-expiring"

    func run(_ payload: Payload, context: JobContext) async throws {
        let now = context.core.clock.now()
        guard let order = try await Order.find(payload.orderID, on: context.db), let customerID = order.userID,
              let holdUntil = order.holdUntil, abs(holdUntil.timeIntervalSince(payload.holdUntil)) < 1, holdUntil > now,
              ReservationExpiryWarnings.open.map(\.rawValue).contains(order.status)
        else { return try await context.finish { _ in } }
        let store = try await Store.find(order.storeID, on: context.db)?.name ?? "the store"
        let hours = max(1, Int((holdUntil.timeIntervalSince(now) / 3600).rounded()))
        let path = payload.orderID.idString
        try await context.finish { tx in
            try await InboxService.record(.init(
                recipientID: customerID, kind: .reservationExpiring, actorID: nil,
                message: .reservationExpiring(number: order.number, store: store, hours: hours),
                link: "atelier://orders/\(path)", webPath: "/orders/\(path)", critical: true), on: tx, now: now)
        }
        await InboxService.announce(.reservationExpiring, to: customerID, by: nil, live: context.parts.get(LiveUpdates.self))
    }
}
