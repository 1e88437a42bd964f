import Fluent
import Foundation

/// In the transaction that records an inbox entry: when the person wants its kind by email, a
/// delivery row on the email channel and the job that writes the mail.
enum EmailPlanner {
    static func plan(_ entry: InboxEntry, kind: InboxEntry.Kind, on tx: any Database, now: Date) async throws {
        guard try await NotificationKinds.wanted(kind, .email, by: entry.recipientID, on: tx) else { return }
        // A new order already gets its receipt by email (OrderReceiptMail).
        if case .orderUpdated(_, _, let status, _, _) = entry.message, OrderStage(rawValue: status)?.hasReceipt == true { return }
        let delivery = NotificationDelivery(of: entry, kind: kind, channel: "email", status: .queued, reason: nil, now: now)
        try await delivery.create(on: tx)
        let id = try delivery.requireID()
        try await JobQueue.enqueue(EmailDeliveryJob.self, .init(deliveryID: id), key: "email:\(id.idString)", runAt: now, on: tx, now: now)
    }
}
