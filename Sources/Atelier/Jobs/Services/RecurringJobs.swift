import Fluent
import Foundation
import NIOConcurrencyHelpers

/// Work that comes round on a timetable. Every instance schedules each slot (`kind@slot-start`);
/// the unique key lets one job per slot in, and one instance runs it.
final class RecurringJobs: Sendable {
    struct Entry: Sendable {
        var name: String
        var every: TimeInterval
        var enqueue: @Sendable (_ slot: Date, _ db: any Database, _ now: Date) async throws -> Void
    }

    let entries: [Entry]
    /// The last slot this process scheduled per entry, so an idle instance does not write each tick.
    private let scheduled = NIOLockedValueBox<[String: Date]>([:])

    init(_ entries: [Entry]) { self.entries = entries }

    static func every<K: JobKind>(_ interval: TimeInterval, _ kind: K.Type) -> Entry where K.Payload == RecurringSlot {
        Entry(name: K.name, every: interval) { slot, db, now in
            try await JobQueue.enqueue(kind, RecurringSlot(slot: slot), key: "\(K.name)@\(Int(slot.timeIntervalSince1970))", runAt: slot, on: db, now: now)
        }
    }

    /// Schedules the current slot of every entry not yet scheduled by this process.
    func scheduleDue(db: any Database, now: Date) async throws {
        for entry in entries {
            let slot = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / entry.every).rounded(.down) * entry.every)
            if scheduled.withLockedValue({ $0[entry.name] }) == slot { continue }
            try await entry.enqueue(slot, db, now)
            scheduled.withLockedValue { $0[entry.name] = slot }
        }
    }
}

/// The payload of a recurring job: the start of its slot.
struct RecurringSlot: Codable, Sendable {
    var slot: Date
}
