import Fluent
import Foundation
import Logging

/// Runs due jobs of every registered kind. Each instance runs one; in tests `drain` runs them at
/// the test clock's time.
struct JobRunner: Sendable {
    private struct Handler: Sendable {
        var lease: TimeInterval
        var run: @Sendable (_ payload: String, _ context: JobContext) async throws -> Void
    }

    private var handlers: [String: Handler] = [:]
    /// Jobs claimed (and run side by side) at once.
    var batchSize = 8
    private static let logger = Logger(label: "atelier.jobs")

    init() {}

    mutating func register<K: JobKind>(_ kind: K) {
        handlers[K.name] = Handler(lease: K.lease) { payload, context in
            try await kind.run(try JSONDecoder().decode(K.Payload.self, from: Data(payload.utf8)), context: context)
        }
    }

    var kinds: [String] { handlers.keys.sorted() }

    /// Runs jobs until none is due; returns how many ran (successfully or not).
    @discardableResult
    func drain(db: any Database, core: CoreServices, parts: RootParts) async throws -> Int {
        let queue = JobQueue(db: db, core: core)
        var ran = 0
        let kinds = self.kinds
        while try await queue.anyDue(of: kinds) {
            let jobs = try await queue.claim(limit: batchSize, leases: handlers.mapValues(\.lease))
            if jobs.isEmpty { break }
            await withTaskGroup(of: Void.self) { group in
                for job in jobs { group.addTask { await run(job, queue: queue, db: db, core: core, parts: parts) } }
            }
            ran += jobs.count
        }
        return ran
    }

    private func run(_ job: JobQueue.Claimed, queue: JobQueue, db: any Database, core: CoreServices, parts: RootParts) async {
        let context = JobContext(db: db, core: core, parts: parts, jobID: job.id, leaseID: job.leaseID, attempt: job.attempts)
        do {
            guard let handler = handlers[job.kind] else {
                throw JobOutcome.fail(reason: "no worker knows the kind \(job.kind)")
            }
            try await handler.run(job.payload, context)
            // Done, unless the job already finished itself through `context.finish`.
            _ = try await core.writeTransaction(on: db) { tx in try await queue.markDone(job.id, lease: job.leaseID, on: tx) }
            Jobs.counter(kind: job.kind, outcome: "done")
        } catch is JobLeaseLost {
            Self.logger.warning("A job's lease ran out before it finished; another worker has it.", metadata: ["kind": "\(job.kind)"])
        } catch {
            let (reason, retryAt) = Self.next(after: error, job: job, now: core.clock.now())
            do {
                try await queue.markFailed(job, error: reason, retryAt: retryAt)
            } catch {
                Self.logger.error("Recording a job's failure failed: \(String(reflecting: error))")
            }
            Jobs.counter(kind: job.kind, outcome: retryAt == nil ? "failed" : "retried")
            if retryAt == nil { Self.logger.error("A job failed for good.", metadata: ["kind": "\(job.kind)", "reason": "\(reason)"]) }
        }
    }

    /// The reason to keep, and when to try again (nil: kept as failed).
    static func next(after error: any Error, job: JobQueue.Claimed, now: Date) -> (String, Date?) {
        let lastAttempt = job.attempts >= job.maxAttempts
        switch error {
        case JobOutcome.fail(let reason): return (reason, nil)
        case JobOutcome.retry(let after, let reason): return (reason, lastAttempt ? nil : now.addingTimeInterval(max(after, 1)))
        default: return (String(describing: error), lastAttempt ? nil : now.addingTimeInterval(backoff(attempt: job.attempts)))
        }
    }

    /// Exponential backoff with jitter: 5 s after the first failure, doubling up to an hour, each
    /// wait drawn between half and all of that (so jobs that failed together do not retry together).
    static func backoff(attempt: Int, random: Double = Double.random(in: 0.5...1)) -> TimeInterval {
        let base = min(5 * pow(2, Double(max(attempt - 1, 0))), 3600)
        return base * random
    }
}
