import Logging

public struct Mail: Sendable, Equatable, Codable {
    public var to: String
    public var subject: String
    public var text: String

    public init(to: String, subject: String, text: String) {
        self.to = to
        self.subject = subject
        self.text = text
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
