import Fluent
import Foundation

/// A kind of job: its name in the queue, its payload and what running it does. Running must be
/// safe to repeat: a worker can die after the work and before the job is marked done. Work that
/// only writes to the database can be exactly once: write it through `context.finish`, which marks
/// the job done in the same transaction.
protocol JobKind: Sendable {
    associatedtype Payload: Codable & Sendable
    static var name: String { get }
    /// Runs before the job is kept as failed (the first counts).
    static var maxAttempts: Int { get }
    /// How long a claim lasts before another worker may take the job.
    static var lease: TimeInterval { get }
    func run(_ payload: Payload, context: JobContext) async throws
}

extension JobKind {
    static var maxAttempts: Int { 8 }
    static var lease: TimeInterval { 120 }
}

/// What a running job can reach.
struct JobContext: Sendable {
    let db: any Database
    let core: CoreServices
    /// The root's other parts, by type (`parts.get(LiveUpdates.self)`).
    let parts: RootParts
    let jobID: UUID
    let leaseID: UUID
    /// 1 on the first run.
    let attempt: Int

    /// Runs `body` and marks the job done in one transaction; if the lease was lost meanwhile
    /// (another worker took the job), nothing of it is kept.
    func finish<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        let queue = JobQueue(db: db, core: core)
        return try await core.writeTransaction(on: db) { tx in
            let result = try await body(tx)
            guard try await queue.markDone(jobID, lease: leaseID, on: tx) else { throw JobLeaseLost() }
            return result
        }
    }
}

/// What a job throws to say how to go on.
enum JobOutcome: Error, Sendable {
    /// Try again no sooner than this (a provider's `Retry-After`).
    case retry(after: TimeInterval, reason: String)
    /// Trying again cannot help: keep the job as failed now.
    case fail(reason: String)
}

struct JobLeaseLost: Error {}
