import Fluent
import Foundation
import SQLKit

/// Writes, claims and settles jobs. Enqueueing takes the caller's transaction, so a job commits
/// (or vanishes) with the change that needs it.
struct JobQueue {
    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    struct Claimed: Sendable {
        var id: UUID
        var kind: String
        var payload: String
        var attempts: Int
        var maxAttempts: Int
        var leaseID: UUID
    }

    /// Schedules a job of `kind` unless one with `key` exists (running, waiting, done or failed);
    /// returns whether it was added. Without a key every call adds one.
    @discardableResult
    static func enqueue<K: JobKind>(
        _ kind: K.Type, _ payload: K.Payload, key: String? = nil, runAt: Date, on db: any Database, now: Date
    ) async throws -> Bool {
        let id = UUID.v7(at: now)
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        let rows = try await db.sql.raw("""
            INSERT INTO \(ident: Job.schema) (id, kind, key, payload, status, run_at, attempts, max_attempts, created_at, updated_at)
            VALUES (\(bind: id), \(bind: K.name), \(bind: key ?? "\(K.name):\(id.idString)"), \(bind: json), \(bind: Job.Status.queued.rawValue),
                    \(bind: runAt), 0, \(bind: K.maxAttempts), \(bind: now), \(bind: now))
            ON CONFLICT (key) DO NOTHING RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// On SQLite one process owns the database, so at its start a job still marked running was
    /// left by a process that died: it is due again now rather than when its lease would lapse.
    /// (On PostgreSQL other instances may be running them; their leases decide.)
    func releaseLeasesOfDeadProcess() async throws {
        guard db.sql.dialect.name == "sqlite" else { return }
        try await db.sql.raw("""
            UPDATE \(ident: Job.schema) SET status = \(bind: Job.Status.queued.rawValue), lease_id = NULL, lease_until = NULL, run_at = \(bind: now)
            WHERE status = \(bind: Job.Status.running.rawValue)
            """).run()
    }

    /// Whether any job of `kinds` is due or has a lapsed lease (a read, so idle polling takes no
    /// write lock).
    func anyDue(of kinds: [String]) async throws -> Bool {
        try await db.sql.raw("SELECT 1 AS due FROM \(ident: Job.schema) WHERE \(claimable(kinds)) LIMIT 1").first() != nil
    }

    /// Due jobs and jobs whose lease lapsed, of the kinds this instance knows (during a rolling
    /// deploy an older instance leaves a new kind to the newer ones).
    private func claimable(_ kinds: [String]) -> SQLQueryString {
        let now = self.now
        return """
            kind IN (\(binds: kinds)) AND ((status = \(bind: Job.Status.queued.rawValue) AND run_at <= \(bind: now))
               OR (status = \(bind: Job.Status.running.rawValue) AND lease_until < \(bind: now)))
            """
    }

    /// Claims up to `limit` due jobs of the kinds in `leases` (and those whose worker's lease
    /// lapsed), oldest first, each for its kind's lease. On
    /// PostgreSQL, instances skip the rows another is claiming (`FOR UPDATE SKIP LOCKED`); SQLite
    /// has one writer at a time, so the single UPDATE is enough.
    func claim(limit: Int, leases: [String: TimeInterval]) async throws -> [Claimed] {
        let now = self.now
        let leaseID = UUID()
        let longest = leases.values.max() ?? 120
        let skipLocked: SQLQueryString = db.sql.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        let rows = try await core.writeTransaction(on: db) { tx in
            try await tx.sql.raw("""
                UPDATE \(ident: Job.schema)
                SET status = \(bind: Job.Status.running.rawValue), lease_id = \(bind: leaseID), lease_until = \(bind: now.addingTimeInterval(longest)),
                    attempts = attempts + 1, updated_at = \(bind: now)
                WHERE id IN (
                    SELECT id FROM \(ident: Job.schema) WHERE \(claimable(Array(leases.keys)))
                    ORDER BY run_at LIMIT \(literal: limit)\(skipLocked))
                RETURNING id, kind, payload, attempts, max_attempts
                """).all()
        }
        var claimed: [Claimed] = []
        for row in rows {
            let job = Claimed(
                id: try row.decode(column: "id", as: UUID.self), kind: try row.decode(column: "kind", as: String.self),
                payload: try row.decode(column: "payload", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self),
                maxAttempts: try row.decode(column: "max_attempts", as: Int.self), leaseID: leaseID)
            // A job whose workers kept dying (a crash it causes) stops being retried.
            if job.attempts > job.maxAttempts {
                _ = try await settle(job.id, lease: leaseID, status: .failed, runAt: nil, error: "its worker stopped \(job.maxAttempts) times")
                continue
            }
            if let lease = leases[job.kind], lease < longest {
                try await db.sql.raw("UPDATE \(ident: Job.schema) SET lease_until = \(bind: now.addingTimeInterval(lease)) WHERE id = \(bind: job.id) AND lease_id = \(bind: leaseID)").run()
            }
            claimed.append(job)
        }
        return claimed
    }

    /// Marks a claimed job done on `tx`; false when the lease is no longer this worker's.
    func markDone(_ id: UUID, lease: UUID, on tx: any Database) async throws -> Bool {
        try await JobQueue(db: tx, core: core).settle(id, lease: lease, status: .done, runAt: nil, error: nil)
    }

    /// After a failed run: again at `retryAt`, or kept as failed.
    func markFailed(_ job: Claimed, error: String, retryAt: Date?) async throws {
        let status: Job.Status = retryAt == nil ? .failed : .queued
        _ = try await core.writeTransaction(on: db) { tx in
            try await JobQueue(db: tx, core: core).settle(job.id, lease: job.leaseID, status: status, runAt: retryAt, error: error)
        }
    }

    /// Sets a failed job going again now (the admin page's "Retry"), with a fresh set of attempts.
    func retry(_ id: UUID) async throws -> Bool {
        let now = self.now
        let rows = try await db.sql.raw("""
            UPDATE \(ident: Job.schema) SET status = \(bind: Job.Status.queued.rawValue), run_at = \(bind: now), attempts = 0,
                lease_id = NULL, lease_until = NULL, updated_at = \(bind: now), finished_at = NULL
            WHERE id = \(bind: id) AND status = \(bind: Job.Status.failed.rawValue) RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// Forgets finished jobs older than `age` (failed ones stay for the admins).
    func pruneDone(olderThan age: TimeInterval) async throws {
        try await db.sql.raw("""
            DELETE FROM \(ident: Job.schema) WHERE status = \(bind: Job.Status.done.rawValue) AND finished_at < \(bind: now.addingTimeInterval(-age))
            """).run()
    }

    private func settle(_ id: UUID, lease: UUID, status: Job.Status, runAt: Date?, error: String?) async throws -> Bool {
        let now = self.now
        let finished: Date? = status == .done || status == .failed ? now : nil
        var query: SQLQueryString = """
            UPDATE \(ident: Job.schema) SET status = \(bind: status.rawValue), lease_id = NULL, lease_until = NULL,
                updated_at = \(bind: now), finished_at = \(bind: finished), last_error = \(bind: error.map { String($0.prefix(1000)) })
            """
        if let runAt { query += ", run_at = \(bind: runAt)" }
        query += " WHERE id = \(bind: id) AND lease_id = \(bind: lease) RETURNING id"
        return try await db.sql.raw(query).all().isEmpty == false
    }
}
