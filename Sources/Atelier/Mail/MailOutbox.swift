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

/// Mail written before mail went through the job queue gets its job.
struct QueueUnsentMail: AsyncMigration {
    func prepare(on database: any Database) async throws {
        let now = Date()
        for row in try await OutboxMail.query(on: database).filter(\.$sentAt == nil).filter(\.$failedAt == nil).all() {
            let id = try row.requireID()
            try await JobQueue.enqueue(SendMailJob.self, .init(mailID: id), key: "mail:\(id.idString)", runAt: now, on: database, now: now)
        }
    }

    func revert(on database: any Database) async throws {}
}

/// Mail waits in `mail_outbox`; each row has a `mail.send` job committed with it, so mail goes
/// through the one job queue: once across instances, retried with backoff, kept as failed after
/// the last attempt.
final class MailOutbox: Sendable {
    let mailer: any Mailer
    private let clock: any AppClock

    init(mailer: any Mailer, clock: any AppClock) {
        self.mailer = mailer
        self.clock = clock
    }

    /// Writes `mail` and its job on `database` (the caller's transaction).
    func enqueue(_ mail: Mail, on database: any Database) async throws {
        let now = clock.now()
        let row = OutboxMail(mail: mail, now: now)
        try await row.create(on: database)
        let id = try row.requireID()
        try await JobQueue.enqueue(SendMailJob.self, .init(mailID: id), key: "mail:\(id.idString)", runAt: now, on: database, now: now)
    }
}

/// Sends one mail of the outbox.
struct SendMailJob: JobKind {
    struct Payload: Codable, Sendable { var mailID: UUID }
    static let name = "mail.send"
    static let maxAttempts = 8

    private static let logger = Logger(label: "atelier.mail")

    func run(_ payload: Payload, context: JobContext) async throws {
        let now = context.core.clock.now()
        guard let row = try await OutboxMail.find(payload.mailID, on: context.db), row.sentAt == nil, row.failedAt == nil else {
            return try await context.finish { _ in }
        }
        row.attempts += 1
        do {
            try await context.parts.get(MailOutbox.self).mailer.send(Mail(
                to: row.recipient, subject: row.subject, text: row.bodyText, html: row.bodyHTML, unsubscribeURL: row.unsubscribeURL))
        } catch {
            row.lastError = String(describing: error)
            if context.attempt >= Self.maxAttempts {
                row.failedAt = now
                Self.logger.error("Mail \(payload.mailID.idString) failed for good: \(error)")
            } else {
                Self.logger.warning("Mail \(payload.mailID.idString) attempt \(row.attempts) failed: \(error)")
            }
            try await row.save(on: context.db)
            throw error
        }
        row.sentAt = now
        row.lastError = nil
        try await context.finish { tx in try await row.save(on: tx) }
    }
}
