import Fluent
import Foundation

/// Emails one notification: re-checks the person still wants this kind by email and has a
/// confirmed address, then puts the mail in the outbox and marks the delivery sent in one
/// transaction (the outbox's worker sends it, with its own retries).
struct EmailDeliveryJob: JobKind {
    struct Payload: Codable, Sendable { var deliveryID: UUID }
    static let name = "email.deliver"

    func run(_ payload: Payload, context: JobContext) async throws {
        let db = context.db, core = context.core, mailOutbox = context.parts.get(MailOutbox.self)
        let now = core.clock.now()
        guard let delivery = try await NotificationDelivery.find(payload.deliveryID, on: db),
              delivery.status == NotificationDelivery.Status.queued.rawValue,
              let kind = InboxEntry.Kind(rawValue: delivery.kind)
        else { return try await context.finish { _ in } }
        let user = try await User.find(delivery.userID, on: db)
        let entry = try await InboxEntry.find(delivery.inboxEntryID, on: db)

        var unsent: NotificationDelivery.Reason?
        if try await !NotificationKinds.wanted(kind, .email, by: delivery.userID, on: db) { unsent = .optedOut }
        if user?.email == nil || user?.emailVerifiedAt == nil { unsent = .noEmail }
        var mail: Mail?
        if unsent == nil, let user, let address = user.email, let entry {
            let language = NotificationLanguage(locale: user.locale)
            let base = core.config.publicBaseURL
            let token = UnsubscribeToken.make(userID: delivery.userID, kind: kind, secret: core.secrets.urlSigningKey)
            mail = NotificationEmail.compose(
                to: address, text: entry.message?.text(in: language) ?? entry.text, kind: kind,
                pageURL: base + entry.webPath, unsubscribeURL: "\(base)/unsubscribe/\(token)", language: language)
        }
        let outcome = mail, reason = (unsent ?? .noEmail).rawValue
        try await context.finish { tx in
            if let outcome { try await mailOutbox.enqueue(outcome, on: tx) }
            delivery.status = (outcome == nil ? NotificationDelivery.Status.notSent : .sent).rawValue
            delivery.reason = outcome == nil ? reason : nil
            delivery.sentAt = outcome == nil ? nil : now
            delivery.attempts += 1
            delivery.updatedAt = now
            try await delivery.save(on: tx)
        }
        PushMetrics.count(channel: "email", outcome: mail == nil ? reason : "sent")
    }
}
