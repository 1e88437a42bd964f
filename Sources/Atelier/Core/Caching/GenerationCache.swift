import Foundation
import NIOConcurrencyHelpers

/// Values derived from the catalogue, kept for a short time (issue 9): ranked search pages and
/// whole answers of public list reads. Every catalogue write calls `invalidate` (through
/// `AtelierServices.catalogChanged`; on PostgreSQL other instances' writes too, through
/// `ClusterBus`), so nothing stored before it is used again. While the bus cannot hear the other
/// instances the cache is bypassed (`setBypassed`). A value computed while a write happened is not kept,
/// since it may predate the write: callers read `generation` before computing and pass it to `store`.
final class GenerationCache<Value: Sendable>: Sendable {
    private struct Entry {
        var value: Value
        var storedAt: Date
        var generation: Int
        var cost: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var generation = 0
        var totalCost = 0
        var bypassed = false
    }

    let lifetime: TimeInterval
    /// The most the kept values may cost together (in `cost` units: entries, or bytes).
    let capacity: Int
    private let cost: @Sendable (Value) -> Int
    private let state = NIOLockedValueBox(State())

    init(lifetime: TimeInterval = 30, capacity: Int = 1000, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.cost = cost
    }

    /// The generation to pass to `store` for a value computed from now on.
    var generation: Int { state.withLockedValue { $0.generation } }

    func value(for key: String, now: Date) -> Value? {
        state.withLockedValue { state in
            guard !state.bypassed, let entry = state.entries[key] else { return nil }
            guard entry.generation == state.generation, now.timeIntervalSince(entry.storedAt) < lifetime else {
                state.entries[key] = nil
                state.totalCost -= entry.cost
                return nil
            }
            return entry.value
        }
    }

    /// Keeps `value`, unless the catalogue changed since `generation` was read (it may be stale).
    func store(_ value: Value, for key: String, generation: Int, now: Date) {
        let cost = cost(value)
        guard cost <= capacity else { return }
        state.withLockedValue { state in
            guard generation == state.generation, !state.bypassed else { return }
            if let replaced = state.entries.removeValue(forKey: key) { state.totalCost -= replaced.cost }
            if state.totalCost + cost > capacity {
                // Expired entries go first; if that is not enough, the oldest until half the capacity is free.
                state.entries = state.entries.filter { now.timeIntervalSince($0.value.storedAt) < lifetime }
                state.totalCost = state.entries.values.reduce(0) { $0 + $1.cost }
                if state.totalCost + cost > capacity {
                    var kept: [String: Entry] = [:], total = 0
                    for (key, entry) in state.entries.sorted(by: { $0.value.storedAt > $1.value.storedAt }) {
                        guard total + entry.cost <= capacity / 2 else { break }
                        kept[key] = entry
                        total += entry.cost
                    }
                    (state.entries, state.totalCost) = (kept, total)
                }
            }
            state.entries[key] = Entry(value: value, storedAt: now, generation: generation, cost: cost)
            state.totalCost += cost
        }
    }

    /// While bypassed, nothing is served or kept (and what was kept is dropped).
    func setBypassed(_ bypassed: Bool) {
        state.withLockedValue { state in
            if bypassed && !state.bypassed {
                state.generation += 1
                state.entries.removeAll()
                state.totalCost = 0
            }
            state.bypassed = bypassed
        }
    }

    /// Called by every catalogue write: nothing stored before is used again.
    func invalidate() {
        state.withLockedValue { state in
            state.generation += 1
            state.entries.removeAll()
            state.totalCost = 0
        }
    }
}
