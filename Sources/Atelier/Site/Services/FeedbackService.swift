import Fluent
import Foundation

/// The contact form (issue 51): a message is kept and reaches every admin's inbox in the same
/// transaction. Limited per sender and per address, so a form cannot flood the admins.
struct FeedbackService {
    static let perSender = RateLimiter.Rule(limit: 5, window: 3600)
    static let perAddress = RateLimiter.Rule(limit: 10, window: 3600)
    static let maxSubjectLength = 120
    static let maxMessageLength = 5000

    struct Input: Sendable {
        var email: String?
        var subject: String
        var message: String
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    /// `sender` is nil when signed out; then an email address to answer to is required.
    func send(_ input: Input, from sender: User?, clientAddress: String) async throws -> FeedbackMessage {
        var errors = FieldErrors()
        let subject = input.subject.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = input.message.trimmingCharacters(in: .whitespacesAndNewlines)
        if subject.isEmpty || subject.count > Self.maxSubjectLength { errors.add("subject", "must be 1 to \(Self.maxSubjectLength) characters") }
        if text.isEmpty || text.count > Self.maxMessageLength { errors.add("message", "must be 1 to \(Self.maxMessageLength) characters") }
        var email = sender?.email
        if let typed = input.email?.trimmingCharacters(in: .whitespaces), !typed.isEmpty {
            email = AccountRules.email(typed, into: &errors)
        } else if email == nil {
            errors.add("email", "is needed so that we can answer")
        }
        try PlainText.requireNoNUL(subject, field: "subject")
        try PlainText.requireNoNUL(text, field: "message")
        try errors.throwIfAny()

        let limiter = core.rateLimiter
        try await limiter.check("feedback:ip:\(clientAddress)", Self.perAddress)
        if let id = sender?.id { try await limiter.check("feedback:user:\(id.idString)", Self.perSender) }
        let now = core.clock.now()
        let message = FeedbackMessage()
        message.id = .v7(at: now)
        message.userID = sender?.id
        message.email = email ?? ""
        message.subject = subject
        message.message = text
        message.createdAt = now
        let from = sender.map { "\($0.displayName) (\(email ?? ""))" } ?? (email ?? "")
        let admins = try await core.writeTransaction(on: db) { tx -> [UUID] in
            try await message.create(on: tx)
            return try await InboxService.recordForAdmins(
                .feedback, actorID: nil, text: "Contact form, from \(from): “\(subject)”. \(String(text.prefix(280)))",
                link: "atelier://admin/feedback", webPath: "/admin/feedback", on: tx, now: now)
        }
        try await limiter.record("feedback:ip:\(clientAddress)")
        if let id = sender?.id { try await limiter.record("feedback:user:\(id.idString)") }
        for admin in admins { await InboxService.announce(.feedback, to: admin, by: nil, live: live) }
        return message
    }

    func recent(limit: Int) async throws -> [FeedbackMessage] {
        try await FeedbackMessage.query(on: db).sort(\.$createdAt, .descending).limit(limit).all()
    }
}
