import Fluent
import Foundation

/// One unit of scheduled or deferred work (notifications.md, Jobs): the table is the queue. A job
/// runs at or after `runAt`; a worker claims it with a lease, and a job whose worker died is
/// claimed again once the lease has run out. `key` is unique, so the same job is never scheduled
/// twice however many instances or retries try.
final class Job: Model, @unchecked Sendable {
    static let schema = "jobs"

    enum Status: String, Sendable, CaseIterable { case queued, running, done, failed }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "kind") var kind: String
    @Field(key: "key") var key: String
    /// The kind's payload, as JSON.
    @Field(key: "payload") var payload: String
    @Field(key: "status") var status: String
    @Field(key: "run_at") var runAt: Date
    @Field(key: "attempts") var attempts: Int
    @Field(key: "max_attempts") var maxAttempts: Int
    /// Set at each claim; finishing or retrying a job checks it, so a worker whose lease ran out
    /// (and whose job another worker took) changes nothing.
    @OptionalField(key: "lease_id") var leaseID: UUID?
    @OptionalField(key: "lease_until") var leaseUntil: Date?
    @OptionalField(key: "last_error") var lastError: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "finished_at") var finishedAt: Date?

    init() {}
}
