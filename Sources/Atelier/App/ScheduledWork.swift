import Fluent
import Foundation
import Logging

/// Everything that runs on a timetable, as jobs (notifications.md, Jobs), and every job kind this
/// instance runs: the composition root's list of what each domain declares. Each calls the domain
/// service that does the work; the services find what is due themselves, so a slot that runs late
/// or twice does no harm. The two composite kinds (housekeeping, notification triggers) are here
/// because they call several domains.
enum ScheduledWork {
    static var recurring: RecurringJobs {
        RecurringJobs([
            RecurringJobs.every(3600, HousekeepingJob.self),
            RecurringJobs.every(600, FeedRedrawJob.self),
            RecurringJobs.every(30, MagazinePublishingJob.self),
            RecurringJobs.every(30, OrderExpiryJob.self),
            RecurringJobs.every(60, OutfitReminderJob.self),
            RecurringJobs.every(60, NotificationTriggersJob.self),
            RecurringJobs.every(3600, InactivityNudgeJob.self),
            RecurringJobs.every(3600, DailyDigestJob.self),
        ])
    }

    static func register(into runner: inout JobRunner) {
        runner.register(HousekeepingJob())
        runner.register(FeedRedrawJob())
        runner.register(MagazinePublishingJob())
        runner.register(OrderExpiryJob())
        runner.register(OutfitReminderJob())
        runner.register(DeliverPushJob())
        runner.register(EmailDeliveryJob())
        runner.register(SendMailJob())
        runner.register(NotificationTriggersJob())
        runner.register(InactivityNudgeJob())
        runner.register(DailyDigestJob())
        runner.register(MomentStartingJob())
        runner.register(ReservationExpiringJob())
    }

    static let logger = Logger(label: "atelier.jobs")
}

/// Hourly: expired idempotency records, media nobody attached, finished jobs, large live-bus messages.
struct HousekeepingJob: JobKind {
    static let name = "housekeeping"
    static let maxAttempts = 3
    static let lease: TimeInterval = 1800

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        let now = context.core.clock.now()
        try await IdempotencyRecord.query(on: context.db).filter(\.$createdAt < now.addingTimeInterval(-IdempotencyMiddleware.lifetime)).delete()
        try await MediaService(db: context.db, core: context.core, mediaLibrary: context.parts.get(MediaLibrary.self)).collectUnattached()
        try await JobQueue(db: context.db, core: context.core).pruneDone(olderThan: 2 * 86_400)
        try await context.core.rateLimiter.prune()
        try await ClusterBus.pruneStored(on: context.db, before: now.addingTimeInterval(-ClusterBus.storedLifetime))
    }
}

/// Every minute: reminders of moments starting within the hour and warnings of reservations
/// ending within three (each then a job of its own, scheduled once).
struct NotificationTriggersJob: JobKind {
    static let name = "notifications.triggers"
    static let maxAttempts = 3

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        try await MomentStartingReminders(db: context.db, core: context.core).scheduleDue()
        try await ReservationExpiryWarnings(db: context.db, core: context.core).scheduleDue()
    }
}
