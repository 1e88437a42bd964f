import Foundation

/// Hourly (the root schedules it): the "we miss you" nudges that are due.
struct InactivityNudgeJob: JobKind {
    static let name = "notifications.we-miss-you"
    static let maxAttempts = 3

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        try await InactivityNudges(db: context.db, core: context.core).sendDue()
    }
}
