import Foundation

/// Every minute (the root schedules it): the morning outfit reminders that are due.
struct OutfitReminderJob: JobKind {
    static let name = "wardrobe.outfit-reminders"
    static let maxAttempts = 3

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        _ = try await OutfitReminders(db: context.db, core: context.core, live: context.parts.get(LiveUpdates.self)).sendDue()
    }
}
