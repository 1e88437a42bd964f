import Foundation
import NIOConcurrencyHelpers

/// Values derived from the catalogue, kept for a short time (issue 9): ranked search pages and
/// whole answers of public list reads. Every catalogue write in this process calls `invalidate`
/// (through `AtelierServices.catalogChanged`), so nothing stored before it is used again; another
/// instance's writes show within `lifetime`. A value computed while a write happened is not kept,
/// since it may predate the write: callers read `generation` before computing and pass it to `store`.
final class GenerationCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var storedAt: Date
        var generation: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var generation = 0
    }

    let lifetime: TimeInterval
    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(lifetime: TimeInterval = 30, capacity: Int = 1000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The generation to pass to `store` for a value computed from now on.
    var generation: Int { state.withLockedValue { $0.generation } }

    func value(for key: String, now: Date) -> Value? {
        state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.generation == state.generation, now.timeIntervalSince(entry.storedAt) < lifetime else {
                state.entries[key] = nil
                return nil
            }
            return entry.value
        }
    }

    /// Keeps `value`, unless the catalogue changed since `generation` was read (it may be stale).
    func store(_ value: Value, for key: String, generation: Int, now: Date) {
        state.withLockedValue { state in
            guard generation == state.generation else { return }
            if state.entries.count >= capacity {
                // Expired entries go first; if none, the oldest half.
                state.entries = state.entries.filter { now.timeIntervalSince($0.value.storedAt) < lifetime }
                if state.entries.count >= capacity {
                    let keep = state.entries.sorted { $0.value.storedAt > $1.value.storedAt }.prefix(capacity / 2)
                    state.entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
                }
            }
            state.entries[key] = Entry(value: value, storedAt: now, generation: generation)
        }
    }

    /// Called by every catalogue write: nothing stored before is used again.
    func invalidate() {
        state.withLockedValue { state in
            state.generation += 1
            state.entries.removeAll()
        }
    }
}
