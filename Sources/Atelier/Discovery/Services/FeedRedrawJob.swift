import Foundation
import Logging

/// Every ten minutes (the root schedules it): the feed sort keys' daily re-draw when it is due.
struct FeedRedrawJob: JobKind {
    static let name = "feed.redraw"
    static let maxAttempts = 3
    static let logger = Logger(label: "atelier.jobs")
    static let lease: TimeInterval = 1800

    func run(_ payload: RecurringSlot, context: JobContext) async throws {
        if let count = try await FeedSortKeyRedraw(db: context.db, core: context.core).runIfDue() {
            Self.logger.info("Feed sort keys re-drawn for \(count) products.")
        }
    }
}
