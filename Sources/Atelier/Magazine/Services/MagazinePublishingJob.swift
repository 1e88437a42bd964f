import Foundation

/// Every 30 s (the root schedules it): issues whose publishing time came.
struct MagazinePublishingJob: JobKind {
    static let name = "magazine.publish"
    static let maxAttempts = 3

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        _ = try await MagazineEditor(db: context.db, core: context.core, mediaLibrary: context.parts.get(MediaLibrary.self)).publishDue()
    }
}
