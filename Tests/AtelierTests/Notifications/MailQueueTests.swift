import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Mail goes through the job queue")
struct MailQueueTests {
    @Test("mail committed with its change is sent once, even with two workers draining the queue at the same time")
    func onceAcrossWorkers() async throws {
        try await TestApp.with { t in
            let addresses = (0..<20).map { _ in uniqueEmail("queued") }
            try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                for address in addresses {
                    try await t.app.atelier.mailOutbox.enqueue(Mail(to: address, subject: "Hello", text: "Hi"), on: tx)
                }
            }
            async let first = t.app.atelier.jobs.drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            async let second = t.app.atelier.jobs.drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            _ = try await (first, second)
            for address in addresses { #expect(t.mailer.mails(to: address).count == 1, "\(address)") }
            let rows = try await OutboxMail.query(on: t.app.db).filter(\.$recipient ~~ addresses).all()
            #expect(rows.count == 20)
            #expect(rows.allSatisfy { $0.sentAt != nil && $0.attempts == 1 })
        }
    }

    @Test("a rolled-back change leaves no mail and no job")
    func rolledBack() async throws {
        try await TestApp.with { t in
            let address = uniqueEmail("rolled-back")
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                    try await t.app.atelier.mailOutbox.enqueue(Mail(to: address, subject: "Never", text: "Never"), on: tx)
                    throw Abort()
                }
            }
            try await t.deliverMail()
            #expect(t.mailer.mails(to: address).isEmpty)
            #expect(try await OutboxMail.query(on: t.app.db).filter(\.$recipient == address).count() == 0)
        }
    }
}
