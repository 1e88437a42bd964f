import Fluent
import Foundation
import NIOConcurrencyHelpers

/// Reportable things of the domains above Social (a magazine comment, a review): each registers, at
/// start-up through the composition root, how to find one as its reporter sees it and how to hide it.
/// Moderation never names them.
final class ModerationTargets: Sendable {
    /// What a report keeps of the reported thing.
    struct Reported: Sendable {
        var id: UUID
        var authorID: UUID?
        var excerpt: String?
    }

    struct Target: Sendable {
        /// The reported thing as `reporterID` may see it; a 404 problem when they may not.
        var find: @Sendable (_ subjectID: UUID, _ reporterID: UUID, _ db: any Database) async throws -> Reported
        /// Hides it from everyone but its author, inside the transaction that resolves the report.
        var hide: @Sendable (_ subjectID: UUID, _ tx: any Database, _ now: Date) async throws -> Void
    }

    private let targets = NIOLockedValueBox<[Report.Subject: Target]>([:])

    func register(_ subject: Report.Subject, _ target: Target) {
        targets.withLockedValue { $0[subject] = target }
    }

    func target(_ subject: Report.Subject) -> Target? {
        targets.withLockedValue { $0[subject] }
    }
}
