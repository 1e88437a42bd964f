import Foundation
import NIOConcurrencyHelpers

/// Ranked search pages kept for a short time (issue 9). The match set of a common word is tens of
/// thousands of products, and ranking them and counting facets is most of a search's cost; the
/// same popular searches come again and again. A page is stored as the ranked ids with the total
/// and facets; the product bodies are still read fresh for every answer, and products that are no
/// longer visible are left out of it.
///
/// Catalogue writes in this process (products, stores, brands, categories) clear the cache at once;
/// another instance's writes show within `lifetime`. Likes do not clear it: "most liked" order may
/// lag by up to `lifetime` (the like counts in the answer are always fresh).
final class SearchResultCache: Sendable {
    struct RankedPage: Sendable {
        var ids: [UUID]
        var nextCursor: String?
        var total: Int
        var facets: ProductSearch.Facets
    }

    private struct Entry {
        var page: RankedPage
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

    /// The generation to pass to `store` for a page computed from now on.
    var generation: Int { state.withLockedValue { $0.generation } }

    func page(for key: String, now: Date) -> RankedPage? {
        state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.generation == state.generation, now.timeIntervalSince(entry.storedAt) < lifetime else {
                state.entries[key] = nil
                return nil
            }
            return entry.page
        }
    }

    /// Keeps `page`, unless the catalogue changed since `generation` was read (it may be stale).
    func store(_ page: RankedPage, for key: String, generation: Int, now: Date) {
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
            state.entries[key] = Entry(page: page, storedAt: now, generation: generation)
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
