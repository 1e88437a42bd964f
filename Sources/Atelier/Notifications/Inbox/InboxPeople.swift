import AtelierServerAPI
import Fluent
import Foundation
import NIOConcurrencyHelpers

/// Who an inbox shows and how: the people whose entries are hidden from its reader (blocked either
/// way) and the actors' cards. Social gives both at start-up through the composition root; without
/// them nothing is hidden and entries have no actor card.
final class InboxPeople: Sendable {
    struct Rules: Sendable {
        var hidden: @Sendable (_ reader: UUID, _ db: any Database) async throws -> Set<UUID>
        var cards: @Sendable (_ actors: [UUID], _ reader: UUID, _ db: any Database) async throws -> [UUID: Components.Schemas.UserSummary]
    }

    private let rules = NIOLockedValueBox<Rules?>(nil)

    func use(_ rules: Rules) {
        self.rules.withLockedValue { $0 = rules }
    }

    func hidden(from reader: UUID, on db: any Database) async throws -> Set<UUID> {
        try await rules.withLockedValue({ $0 })?.hidden(reader, db) ?? []
    }

    func cards(_ actors: [UUID], for reader: UUID, on db: any Database) async throws -> [UUID: Components.Schemas.UserSummary] {
        try await rules.withLockedValue({ $0 })?.cards(actors, reader, db) ?? [:]
    }
}
