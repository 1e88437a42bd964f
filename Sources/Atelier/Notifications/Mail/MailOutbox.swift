import Fluent
import Foundation
import Logging

/// Mail waiting to be sent. Written in the same transaction as the change that causes it,
/// delivered by `MailOutbox`'s worker with retries and backoff.
final class OutboxMail: Model, @unchecked Sendable {
    static let schema = "mail_outbox"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "recipient") var recipient: String
    @Field(key: "subject") var subject: String
    @Field(key: "body_text") var bodyText: String
    @OptionalField(key: "body_html") var bodyHTML: String?
    @OptionalField(key: "unsubscribe_url") var unsubscribeURL: String?
    @Field(key: "attempts") var attempts: Int
    @Field(key: "next_attempt_at") var nextAttemptAt: Date
    @OptionalField(key: "sent_at") var sentAt: Date?
    @OptionalField(key: "failed_at") var failedAt: Date?
    @OptionalField(key: "last_error") var lastError: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(mail: Mail, now: Date) {
        self.id = .v7(at: now)
        self.recipient = mail.to
        self.subject = mail.subject
        self.bodyText = mail.text
        self.bodyHTML = mail.html
        self.unsubscribeURL = mail.unsubscribeURL
        self.attempts = 0
        self.nextAttemptAt = now
        self.createdAt = now
    }
}

struct CreateMailOutbox: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OutboxMail.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("recipient", .string, .required)
            .field("subject", .string, .required)
            .field("body_text", .string, .required)
            .field("attempts", .int, .required)
            .field("next_attempt_at", .datetime, .required)
            .field("sent_at", .datetime)
            .field("failed_at", .datetime)
            .field("last_error", .string)
            .field("created_at", .datetime, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OutboxMail.schema).delete()
    }
}

/// Mail with an HTML part and a one-click unsubscribe link (notification email).
struct AddMailAlternatives: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(OutboxMail.schema).field("body_html", .string).update()
        try await database.schema(OutboxMail.schema).field("unsubscribe_url", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(OutboxMail.schema).deleteField("unsubscribe_url").update()
        try await database.schema(OutboxMail.schema).deleteField("body_html").update()
    }
}

final class MailOutbox: Sendable {
    static let maxAttempts = 8

    let mailer: any Mailer
    private let clock: any AppClock
    private let logger: Logger

    init(mailer: any Mailer, clock: any AppClock, logger: Logger) {
        self.mailer = mailer
        self.clock = clock
        self.logger = logger
    }

    func enqueue(_ mail: Mail, on database: any Database) async throws {
        try await OutboxMail(mail: mail, now: clock.now()).create(on: database)
    }

    /// Sends everything that is due, batch after batch; returns how many were sent.
    @discardableResult
    func deliverAllDue(on database: any Database, batchSize: Int = 20) async throws -> Int {
        var total = 0
        while true {
            let (attempted, sent) = try await deliverBatch(on: database, limit: batchSize)
            total += sent
            if attempted < batchSize { return total }
        }
    }

    /// Sends one batch of what is due; returns how many were tried and sent. Failures back off exponentially
    /// (30 s, 1 min, 2 min, …) and are kept as failed after the last attempt.
    private func deliverBatch(on database: any Database, limit: Int) async throws -> (attempted: Int, sent: Int) {
        let due = try await OutboxMail.query(on: database)
            .filter(\.$sentAt == nil).filter(\.$failedAt == nil)
            .filter(\.$nextAttemptAt <= clock.now())
            .sort(\.$nextAttemptAt).limit(limit).all()
        var sent = 0
        for row in due {
            row.attempts += 1
            do {
                try await mailer.send(Mail(to: row.recipient, subject: row.subject, text: row.bodyText, html: row.bodyHTML, unsubscribeURL: row.unsubscribeURL))
                row.sentAt = clock.now()
                row.lastError = nil
                sent += 1
            } catch {
                row.lastError = String(describing: error)
                if row.attempts >= Self.maxAttempts {
                    row.failedAt = clock.now()
                    logger.error("Mail \(row.id?.uuidString ?? "?") failed for good: \(error)")
                } else {
                    let delay = 30 * pow(2, Double(row.attempts - 1))
                    row.nextAttemptAt = clock.now().addingTimeInterval(delay)
                    logger.warning("Mail \(row.id?.uuidString ?? "?") attempt \(row.attempts) failed: \(error)")
                }
            }
            try await row.save(on: database)
        }
        return (due.count, sent)
    }
}
