import Fluent
import Foundation

/// An admin's "send again" for a failed push: queued once more with a job of its own (the old
/// job's key is spent). A delivery whose device is gone has nowhere to go.
struct PushRetries {
    let db: any Database
    let core: CoreServices

    func retry(_ id: UUID) async throws -> Bool {
        let now = core.clock.now()
        return try await core.writeTransaction(on: db) { tx in
            guard let delivery = try await NotificationDelivery.find(id, on: tx), delivery.status == NotificationDelivery.Status.failed.rawValue,
                  delivery.deviceID != nil
            else { return false }
            delivery.status = NotificationDelivery.Status.queued.rawValue
            delivery.reason = nil
            delivery.deliverAt = now
            delivery.updatedAt = now
            try await delivery.save(on: tx)
            try await JobQueue.enqueue(DeliverPushJob.self, .init(deliveryID: id), runAt: now, on: tx, now: now)
            return true
        }
    }
}
