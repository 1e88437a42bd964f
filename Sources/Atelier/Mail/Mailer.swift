import Logging

public struct Mail: Sendable, Equatable, Codable {
    public var to: String
    public var subject: String
    public var text: String
    /// The same message as HTML, sent beside the text (multipart/alternative).
    public var html: String?
    /// A one-click unsubscribe URL (RFC 8058) for mail people chose to get (digests, notifications).
    public var unsubscribeURL: String?

    public init(to: String, subject: String, text: String, html: String? = nil, unsubscribeURL: String? = nil) {
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.unsubscribeURL = unsubscribeURL
    }
}

/// Sends one mail now. The outbox decides when and retries; mailers only deliver.
public protocol Mailer: Sendable {
    func send(_ mail: Mail) async throws
}

/// The local-development mailer: prints the mail, links included, to the log.
struct LogMailer: Mailer {
    let logger: Logger

    func send(_ mail: Mail) async throws {
        logger.notice("Mail to \(mail.to): \(mail.subject)\n\(mail.text)")
    }
}
