import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing

@testable import Atelier

/// Each run of a job adds a row (the job's number) to `job_effects`, in the transaction that
/// marks the job done: the table shows how often each job really ran.
private struct CountingJob: JobKind {
    struct Payload: Codable, Sendable { var number: Int }
    static let name = "test.counting"
    static let lease: TimeInterval = 30

    func run(_ payload: Payload, context: JobContext) async throws {
        try await context.finish { tx in
            try await tx.sql.raw("INSERT INTO job_effects (number) VALUES (\(bind: payload.number))").run()
        }
    }
}

/// Fails as the attempts say: a plain error, then a provider's "retry after 90 s", then works.
private struct FlakyJob: JobKind {
    struct Payload: Codable, Sendable { var permanent = false }
    static let name = "test.flaky"
    static let maxAttempts = 4

    func run(_ payload: Payload, context: JobContext) async throws {
        if payload.permanent { throw JobOutcome.fail(reason: "the address is gone") }
        switch context.attempt {
        case 1: throw ProviderDown("the provider hung up")
        case 2: throw JobOutcome.retry(after: 90, reason: "429, Retry-After: 90")
        default: return
        }
    }
}

private struct ProviderDown: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Always fails: for the last attempt and the admin's retry.
private struct BrokenJob: JobKind {
    struct Payload: Codable, Sendable {}
    static let name = "test.broken"
    static let maxAttempts = 2

    func run(_ payload: Payload, context: JobContext) async throws { throw ProviderDown("still down") }
}

@Suite("Jobs: one durable queue")
struct JobQueueTests {
    func runner() -> JobRunner {
        var runner = JobRunner()
        runner.register(CountingJob())
        runner.register(FlakyJob())
        runner.register(BrokenJob())
        return runner
    }

    func makeEffectsTable(_ t: TestApp) async throws {
        try await t.app.db.sql.raw("CREATE TABLE job_effects (number INTEGER NOT NULL)").run()
    }

    func effects(_ db: any Database) async throws -> [Int] {
        try await db.sql.raw("SELECT number FROM job_effects ORDER BY number").all().map { try $0.decode(column: "number", as: Int.self) }
    }

    func job(_ db: any Database, key: String) async throws -> Job? {
        try await Job.query(on: db).filter(\.$key == key).first()
    }

    @Test("a key schedules a job once however often it is enqueued; a job waits for its time; done jobs are pruned after their age")
    func uniqueKeyAndRunAt() async throws {
        try await TestApp.with { t in
            try await makeEffectsTable(t)
            let now = t.clock.now()
            let first = try await JobQueue.enqueue(CountingJob.self, .init(number: 1), key: "reminder:ana:2026-11-25", runAt: now.addingTimeInterval(60), on: t.app.db, now: now)
            let again = try await JobQueue.enqueue(CountingJob.self, .init(number: 2), key: "reminder:ana:2026-11-25", runAt: now, on: t.app.db, now: now)
            #expect(first && !again)
            #expect(try await runner().drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 0, "not due for a minute")
            t.clock.advance(by: 60)
            #expect(try await runner().drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 1)
            #expect(try await effects(t.app.db) == [1])
            // Once done, the key still holds: the same reminder is not scheduled again.
            #expect(try await !JobQueue.enqueue(CountingJob.self, .init(number: 3), key: "reminder:ana:2026-11-25", runAt: now, on: t.app.db, now: t.clock.now()))
            #expect(try await job(t.app.db, key: "reminder:ana:2026-11-25")?.status == "done")
            t.clock.advance(by: 3 * 86_400)
            try await JobQueue(db: t.app.db, core: t.app.core).pruneDone(olderThan: 2 * 86_400)
            #expect(try await job(t.app.db, key: "reminder:ana:2026-11-25") == nil)
        }
    }

    @Test("a failed run is retried with growing, jittered backoff; Retry-After is honoured; a permanent failure and the last attempt keep the job as failed with the reason; an admin's retry runs it again")
    func retriesAndFailures() async throws {
        try await TestApp.with { t in
            let db = t.app.db
            let runner = runner()
            let start = t.clock.now()
            try await JobQueue.enqueue(FlakyJob.self, .init(), key: "flaky", runAt: start, on: db, now: start)
            try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            let afterFirst = try #require(try await job(db, key: "flaky"))
            #expect(afterFirst.status == "queued" && afterFirst.attempts == 1 && afterFirst.lastError?.contains("hung up") == true)
            let wait = afterFirst.runAt.timeIntervalSince(start)
            #expect(wait >= 2.5 && wait <= 5, "the first backoff is 5 s, jittered down to half: \(wait)")

            t.clock.advance(by: 5)
            try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            let afterSecond = try #require(try await job(db, key: "flaky"))
            #expect(afterSecond.status == "queued" && afterSecond.runAt == t.clock.now().addingTimeInterval(90), "Retry-After: 90")
            t.clock.advance(by: 89)
            #expect(try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 0)
            t.clock.advance(by: 1)
            #expect(try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 1)
            #expect(try await job(db, key: "flaky")?.status == "done")

            try await JobQueue.enqueue(FlakyJob.self, .init(permanent: true), key: "gone", runAt: t.clock.now(), on: db, now: t.clock.now())
            try await JobQueue.enqueue(BrokenJob.self, .init(), key: "broken", runAt: t.clock.now(), on: db, now: t.clock.now())
            try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            let gone = try #require(try await job(db, key: "gone"))
            #expect(gone.status == "failed" && gone.attempts == 1 && gone.lastError == "the address is gone")
            t.clock.advance(by: 10)
            try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            let broken = try #require(try await job(db, key: "broken"))
            #expect(broken.status == "failed" && broken.attempts == 2 && broken.lastError?.contains("still down") == true)
            #expect(try await runner.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 0, "failed jobs stay put")

            #expect(try await JobQueue(db: db, core: t.app.core).retry(broken.id!))
            #expect(try await job(db, key: "broken")?.status == "queued")
            #expect(try await !JobQueue(db: db, core: t.app.core).retry(broken.id!), "only failed jobs are retried")

            // The backoff doubles to an hour at most.
            #expect(JobRunner.backoff(attempt: 1, random: 1) == 5 && JobRunner.backoff(attempt: 4, random: 1) == 40)
            #expect(JobRunner.backoff(attempt: 30, random: 1) == 3600 && JobRunner.backoff(attempt: 30, random: 0.5) == 1800)
        }
    }

    @Test("a job whose worker died is run again once its lease lapses, and the dead worker's late finish changes nothing")
    func lapsedLease() async throws {
        try await TestApp.with { t in
            try await makeEffectsTable(t)
            let db = t.app.db
            let queue = JobQueue(db: db, core: t.app.core)
            try await JobQueue.enqueue(CountingJob.self, .init(number: 7), runAt: t.clock.now(), on: db, now: t.clock.now())
            // A worker claims it and dies before finishing.
            let dead = try await queue.claim(limit: 10, leases: [CountingJob.name: CountingJob.lease])
            #expect(dead.count == 1)
            #expect(try await runner().drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 0, "the lease still holds")
            t.clock.advance(by: CountingJob.lease + 1)
            #expect(try await runner().drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == 1)
            #expect(try await effects(db) == [7])
            let late = try await t.app.atelier.writeTransaction(on: db) { tx in try await queue.markDone(dead[0].id, lease: dead[0].leaseID, on: tx) }
            #expect(!late, "the lease is no longer the dead worker's")
            #expect(try await Job.query(on: db).first()?.attempts == 2)
        }
    }

    @Test("two instances share the queue: 1 000 due jobs run exactly once each, and none is lost when one instance dies mid-run")
    func twoInstances() async throws {
        try await TestApp.with { a in
            try await makeEffectsTable(a)
            // On PostgreSQL a second application shares the schema (another instance); SQLite runs
            // jobs in-process, so there two runners share one application.
            let postgres = a.app.atelier.config.databaseSchema != nil
            let b = postgres ? try await TestApp.make { $0.databaseSchema = a.app.atelier.config.databaseSchema } : a
            do {
                b.clock.set(a.clock.now())
                let now = a.clock.now()
                for start in stride(from: 0, to: 1000, by: 100) {
                    try await a.app.atelier.writeTransaction(on: a.app.db) { tx in
                        for number in start..<(start + 100) {
                            try await JobQueue.enqueue(CountingJob.self, .init(number: number), key: "count:\(number)", runAt: now, on: tx, now: now)
                        }
                    }
                }
                // A third worker claims a batch and dies with it.
                let dead = try await JobQueue(db: a.app.db, core: a.app.core).claim(limit: 8, leases: [CountingJob.name: CountingJob.lease])
                #expect(dead.count == 8)
                let runner = runner()
                async let ranA = runner.drain(db: a.app.db, core: a.app.atelier.core, parts: a.app.atelier.parts)
                async let ranB = runner.drain(db: b.app.db, core: b.app.atelier.core, parts: b.app.atelier.parts)
                let (countA, countB) = try await (ranA, ranB)
                #expect(countA + countB == 992)
                #expect(countA > 0 && countB > 0, "both take a share: \(countA) and \(countB)")
                // After the dead worker's lease lapses, its jobs run too.
                a.clock.advance(by: CountingJob.lease + 1)
                if postgres { b.clock.advance(by: CountingJob.lease + 1) }
                #expect(try await runner.drain(db: b.app.db, core: b.app.atelier.core, parts: b.app.atelier.parts) == 8)
                #expect(try await effects(a.app.db) == Array(0..<1000), "every job ran exactly once")
            } catch {
                if postgres { try await b.app.asyncShutdown() }
                throw error
            }
            if postgres { try await b.app.asyncShutdown() }
        }
    }

    @Test("recurring work: each instance schedules every slot, the key lets one job per slot in, and every recurring kind of the app has a worker")
    func recurring() async throws {
        try await TestApp.with { t in
            let db = t.app.db
            // Two instances' timetables (each remembers only its own last slot).
            let first = ScheduledWork.recurring
            let second = ScheduledWork.recurring
            t.clock.set(Date(timeIntervalSince1970: 1_800_000_010))  // 10 s into a 30 s slot
            try await first.scheduleDue(db: db, now: t.clock.now())
            try await second.scheduleDue(db: db, now: t.clock.now())
            try await first.scheduleDue(db: db, now: t.clock.now())
            let kinds = try await Job.query(on: db).all().map(\.kind)
            #expect(kinds.sorted() == ScheduledWork.recurring.entries.map(\.name).sorted(), "one job per kind for this slot")
            #expect(Set(kinds).isSubset(of: Set(t.app.atelier.jobs.kinds)))
            #expect(try await t.app.atelier.jobs.drain(db: db, core: t.app.atelier.core, parts: t.app.atelier.parts) == kinds.count)
            let unfinished = try await Job.query(on: db).filter(\.$status != "done").all().map { ($0.kind, $0.lastError) }
            #expect(unfinished.isEmpty, "\(unfinished)")
            t.clock.advance(by: 30)
            try await second.scheduleDue(db: db, now: t.clock.now())
            try await first.scheduleDue(db: db, now: t.clock.now())
            let next = try await Job.query(on: db).filter(\.$status == "queued").all().map(\.kind).sorted()
            #expect(next == [MagazinePublishingJob.name, OrderExpiryJob.name], "the 30 s kinds have a new slot; the others not yet")
        }
    }
}
