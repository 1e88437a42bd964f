import Fluent
import Foundation
import SQLKit

/// Decides, in the transaction that records an inbox entry, what becomes of it on each of the
/// recipient's devices: a delivery row and the job that sends it, or a `notSent` row saying why
/// not. Critical notifications ignore quiet hours and push opt-outs (never the inbox).
enum PushPlanner {
    static func plan(_ entry: InboxEntry, critical: Bool, on tx: any Database, now: Date) async throws {
        guard let kind = InboxEntry.Kind(rawValue: entry.kind) else { return }
        let userID = entry.recipientID
        guard try await NotificationKinds.pushWanted(kind, by: userID, on: tx) || critical else {
            try await unsent(entry, kind: kind, reason: .optedOut, on: tx, now: now)
            return
        }
        let devices = try await Device.query(on: tx).filter(\.$user.$id == userID).all()
        guard !devices.isEmpty else {
            try await unsent(entry, kind: kind, reason: .noDevice, on: tx, now: now)
            return
        }
        var deliverAt = now
        var deferred = false
        if !critical, let quiet = try await quietHours(of: userID, on: tx), let end = quiet.end(ifQuietAt: now) {
            deliverAt = end
            deferred = true
        }
        let groupKey = NotificationKinds.grouped.contains(kind) ? "\(kind.rawValue) \(entry.link)" : nil
        if groupKey != nil { deliverAt = max(deliverAt, now.addingTimeInterval(NotificationKinds.groupingWindow)) }
        let actorName: String? = if groupKey != nil, let actorID = entry.actorID { try await User.find(actorID, on: tx)?.displayName } else { nil }

        for device in devices {
            let id = UUID.v7(at: now)
            let status = deferred ? NotificationDelivery.Status.deferred : .queued
            // A burst's events join the delivery still waiting for it (one row per device and
            // open group), so they become one push.
            let rows = try await tx.sql.raw("""
                INSERT INTO \(ident: NotificationDelivery.schema) (id, user_id, inbox_entry_id, kind, channel, device_id, status, reason, text, link,
                    critical, group_key, open_group, actor_name, event_count, deliver_at, attempts, created_at, updated_at)
                VALUES (\(bind: id), \(bind: userID), \(bind: entry.id!), \(bind: kind.rawValue), \(bind: device.platform), \(bind: device.id!),
                    \(bind: status.rawValue), \(bind: deferred ? NotificationDelivery.Reason.quietHours.rawValue : nil), \(bind: entry.text), \(bind: entry.link),
                    \(bind: critical), \(bind: groupKey), \(bind: groupKey), \(bind: actorName), 1, \(bind: deliverAt), 0, \(bind: now), \(bind: now))
                ON CONFLICT (device_id, open_group) DO UPDATE SET event_count = \(ident: NotificationDelivery.schema).event_count + 1,
                    inbox_entry_id = excluded.inbox_entry_id, text = excluded.text, updated_at = excluded.updated_at
                RETURNING id, event_count
                """).all()
            guard let row = rows.first, try row.decode(column: "event_count", as: Int.self) == 1 else { continue }
            let deliveryID = try row.decode(column: "id", as: UUID.self)
            try await JobQueue.enqueue(DeliverPushJob.self, .init(deliveryID: deliveryID), key: "push:\(deliveryID.idString)", runAt: deliverAt, on: tx, now: now)
        }
    }

    static func quietHours(of userID: UUID, on db: any Database) async throws -> QuietHours? {
        guard let setting = try await QuietHoursSetting.query(on: db).filter(\.$userID == userID).first(),
              let zone = TimeZone(identifier: setting.timeZone)
        else { return nil }
        return QuietHours(startMinute: setting.startMinute, endMinute: setting.endMinute, timeZone: zone)
    }

    private static func unsent(_ entry: InboxEntry, kind: InboxEntry.Kind, reason: NotificationDelivery.Reason, on tx: any Database, now: Date) async throws {
        let delivery = NotificationDelivery(of: entry, kind: kind, channel: "push", status: .notSent, reason: reason, now: now)
        try await delivery.create(on: tx)
        PushMetrics.count(channel: "push", outcome: reason.rawValue)
    }
}
