import Foundation
import NIOConcurrencyHelpers
import Testing
import UUIDCasingCheck
import VaporTesting

@testable import Atelier

/// A fresh application per test: in-memory SQLite by default, the shared PostgreSQL database
/// when `DATABASE_URL` names one (tests then keep to their own rows by using unique emails).
final class TestApp: Sendable {
    let app: Application
    let clock: ManualClock
    let mailer: CapturingMailer
    let dataDirectory: String

    /// One mailer for every test app: on a shared PostgreSQL database any app's outbox run may
    /// deliver any test's mail, so tests find theirs by their own unique address.
    static let sharedMailer = CapturingMailer()

    static func make(adjust: (inout AppConfig) -> Void = { _ in }) async throws -> TestApp {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let mailer = sharedMailer
        let dataDirectory = NSTemporaryDirectory() + "atelier-test-\(UUID().uuidString)"
        let app = try await Application.make(.testing)
        var config = AppConfig.testing(dataDirectory: dataDirectory)
        adjust(&config)
        do {
            try await configure(app, config: config, clock: clock, mailer: mailer)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        // Every answer of every test, checked for ids written in upper case (issue 23).
        app.middleware.use(UUIDCasingMiddleware { Issue.record(Comment(rawValue: $0)) }, at: .beginning)
        return TestApp(app: app, clock: clock, mailer: mailer, dataDirectory: dataDirectory)
    }

    private init(app: Application, clock: ManualClock, mailer: CapturingMailer, dataDirectory: String) {
        self.app = app
        self.clock = clock
        self.mailer = mailer
        self.dataDirectory = dataDirectory
    }

    func shutdown() async throws {
        try? await DatabaseSetup.dropSchema(app)
        try await app.asyncShutdown()
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// Runs `body` with a fresh app and always shuts it down.
    static func with(adjust: (inout AppConfig) -> Void = { _ in }, _ body: (TestApp) async throws -> Void) async throws {
        let test = try await make(adjust: adjust)
        do {
            try await body(test)
        } catch {
            try await test.shutdown()
            throw error
        }
        try await test.shutdown()
    }

    /// Runs the due jobs now, the outbox's mail among them (the background worker is off in tests).
    func deliverMail() async throws {
        try await app.atelier.jobs.drain(db: app.db, core: app.core, parts: app.atelier.parts)
    }
}

final class CapturingMailer: Mailer {
    private let box = NIOLockedValueBox<[Mail]>([])

    var sent: [Mail] { box.withLockedValue { $0 } }

    func send(_ mail: Mail) async throws {
        box.withLockedValue { $0.append(mail) }
    }

    func mails(to address: String) -> [Mail] {
        sent.filter { $0.to == address }
    }

    /// The token in the last link to `path` mailed to `address`.
    func token(to address: String, path: String) -> String? {
        guard let text = mails(to: address).last(where: { $0.text.contains(path) })?.text,
            let range = text.range(of: "\(path)?token=")
        else { return nil }
        return String(text[range.upperBound...].prefix { !$0.isWhitespace })
    }
}

func uniqueEmail(_ prefix: String = "user") -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
}
