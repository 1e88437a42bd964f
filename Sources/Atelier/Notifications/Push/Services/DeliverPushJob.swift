import Fluent
import Foundation
import Logging
import SQLKit

/// Sends one delivery: closes its group (later events start a new one), checks the device and the
/// person's preference are still there, sends with the unread count as badge, and records how it
/// ended. Token clean-up: an APNs 410 removes the token only if it was registered before APNs'
/// timestamp (a phone that registered again since keeps it); a bad token is removed at once.
struct DeliverPushJob: JobKind {
    struct Payload: Codable, Sendable { var deliveryID: UUID }
    static let name = "push.deliver"
    static let maxAttempts = 8
    static let lease: TimeInterval = 60

    private static let logger = Logger(label: "atelier.push")

    func run(_ payload: Payload, context: JobContext) async throws {
        let db = context.db
        let now = context.core.clock.now()
        let open = [NotificationDelivery.Status.queued, .deferred, .sending].map(\.rawValue)
        // Closing the group and counting the attempt commit before the send, so an event that
        // arrives while it is on its way starts a new push rather than vanishing into this one.
        let closed = try await db.sql.raw("""
            UPDATE \(ident: NotificationDelivery.schema) SET status = \(bind: NotificationDelivery.Status.sending.rawValue), open_group = NULL,
                attempts = attempts + 1, updated_at = \(bind: now)
            WHERE id = \(bind: payload.deliveryID) AND status IN (\(binds: open)) RETURNING id
            """).all()
        guard !closed.isEmpty, let delivery = try await NotificationDelivery.find(payload.deliveryID, on: db) else { return }

        guard let deviceID = delivery.deviceID, let device = try await Device.find(deviceID, on: db) else {
            return try await finish(delivery, .notSent, reason: NotificationDelivery.Reason.noDevice.rawValue, db: db, now: now)
        }
        if !delivery.critical, let kind = InboxEntry.Kind(rawValue: delivery.kind) {
            if try await !NotificationKinds.pushWanted(kind, by: delivery.userID, on: db) {
                return try await finish(delivery, .notSent, reason: NotificationDelivery.Reason.optedOut.rawValue, db: db, now: now)
            }
        }
        guard let sender = context.parts.get(PushChannels.self).sender(for: device.platform) else {
            return try await finish(delivery, .failed, reason: "the \(device.platform) channel is not configured", db: db, now: now)
        }
        let badge = try await InboxService(db: db, clock: context.core.clock).unreadCount(for: delivery.userID)
        let entry = try await InboxEntry.find(delivery.inboxEntryID, on: db)
        var locale = device.locale
        if locale == nil { locale = try await User.find(delivery.userID, on: db)?.locale }
        let language = NotificationLanguage(locale: locale)
        let message = PushMessage(
            kind: delivery.kind,
            text: PushText.text(of: delivery, message: entry?.message, in: language),
            link: delivery.link, badge: badge, collapseID: delivery.groupKey.map(Self.collapseID),
            webPath: device.platform == "webpush" ? entry?.webPath : nil)
        let target = PushTarget(
            platform: device.platform, token: device.token, apnsEnvironment: device.apnsEnvironment, bundleID: device.bundleID,
            webPushP256dh: device.webPushP256dh, webPushAuth: device.webPushAuth, registeredAt: device.updatedAt)
        let result: PushResult
        do {
            result = try await sender.send(message, to: target)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The provider could not be reached: a retry like a 5xx, and after the last one the delivery says so.
            result = .retry(after: nil, reason: "unreachable: \(String(describing: error).prefix(160))")
        }

        switch result {
        case .sent:
            delivery.sentAt = now
            try await finish(delivery, .sent, reason: nil, db: db, now: now)
        case .unregistered(let since):
            // A re-registration after the provider's timestamp means the phone has the token again.
            if since.map({ device.updatedAt < $0 }) ?? true { try await device.delete(on: db) }
            try await finish(delivery, .failed, reason: NotificationDelivery.Reason.unregistered.rawValue, db: db, now: now)
        case .badToken(let reason):
            try await device.delete(on: db)
            try await finish(delivery, .failed, reason: "\(NotificationDelivery.Reason.badDeviceToken.rawValue): \(reason)", db: db, now: now)
        case .rejected(let reason):
            try await finish(delivery, .failed, reason: "\(NotificationDelivery.Reason.rejected.rawValue): \(reason)", db: db, now: now)
        case .retry(let after, let reason):
            delivery.lastError = reason
            guard context.attempt < Self.maxAttempts else {
                return try await finish(delivery, .failed, reason: "\(NotificationDelivery.Reason.gaveUp.rawValue): \(reason)", db: db, now: now)
            }
            try await delivery.save(on: db)
            PushMetrics.count(channel: delivery.channel, outcome: "retried")
            if let after { throw JobOutcome.retry(after: after, reason: reason) }
            throw PushRetry(reason: reason)
        }
    }

    struct PushRetry: Error, CustomStringConvertible { var reason: String; var description: String { reason } }

    private func finish(_ delivery: NotificationDelivery, _ status: NotificationDelivery.Status, reason: String?, db: any Database, now: Date) async throws {
        delivery.status = status.rawValue
        delivery.reason = reason
        delivery.updatedAt = now
        try await delivery.save(on: db)
        PushMetrics.count(channel: delivery.channel, outcome: status == .sent ? "sent" : (status == .failed ? "failed" : reason ?? status.rawValue))
        if status == .failed { Self.logger.warning("A push failed.", metadata: ["reason": "\(reason ?? "")", "kind": "\(delivery.kind)"]) }
    }

    /// APNs allows 64 bytes; the group key is a kind and a link, so a digest of it fits.
    static func collapseID(_ groupKey: String) -> String {
        groupKey.utf8.count <= 64 ? groupKey : String(groupKey.prefix(40)) + "-" + String(TokenHash.sha256(groupKey).prefix(20))
    }
}
