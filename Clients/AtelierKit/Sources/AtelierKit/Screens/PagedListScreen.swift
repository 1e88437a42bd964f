import Foundation
import Observation

/// A screen's list fetched a page at a time (any `…Items(query:)` pager of the domain clients):
/// what is loaded, whether more may come, whether a page is on its way, and the last error. A
/// SwiftUI view draws `items` and calls `loadMore()` when its last row appears.
@MainActor
@Observable
public final class PagedListScreen<Item: Sendable> {
    public private(set) var items: [Item] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var error: (any Error)?

    private let pages: CursorPages<Item>
    private var iterator: CursorPages<Item>.PageIterator

    public init(_ pages: CursorPages<Item>) {
        self.pages = pages
        self.iterator = pages.pages.makeAsyncIterator()
    }

    /// The next page, appended; nothing while one is on its way or after the last.
    public func loadMore() async {
        guard !isLoading, hasMore else { return }
        isLoading = true
        defer { isLoading = false }
        do {
            let (page, next) = try await Self.advance(iterator)
            if let page { items += page } else { hasMore = false }
            iterator = next
            error = nil
            // A page that said it was the last: nothing more to ask for.
            if next.isFinished { hasMore = false }
        } catch {
            self.error = error
        }
    }

    /// The next page and the iterator after it (off the main actor; the screen keeps the iterator).
    nonisolated private static func advance(_ iterator: CursorPages<Item>.PageIterator) async throws -> ([Item]?, CursorPages<Item>.PageIterator) {
        var iterator = iterator
        let page = try await iterator.next()
        return (page, iterator)
    }

    /// Changes the loaded items that match in place (a like, a follow), without a reload.
    public func update(where matches: (Item) -> Bool, _ change: (inout Item) -> Void) {
        for index in items.indices where matches(items[index]) { change(&items[index]) }
    }

    /// Puts an item at the top (a newest-first list hearing of a new one, live or just posted).
    public func prepend(_ item: Item) {
        items.insert(item, at: 0)
    }

    /// Takes the matching items out of the list (a removal the server confirmed).
    public func remove(where matches: (Item) -> Bool) {
        items.removeAll(where: matches)
    }

    /// From the first page again (pull to refresh).
    public func reload() async {
        guard !isLoading else { return }
        iterator = pages.pages.makeAsyncIterator()
        hasMore = true
        let before = items
        items = []
        await loadMore()
        if error != nil { items = before }
    }
}
