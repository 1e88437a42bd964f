import Foundation

/// The items of a cursor-paged list as an `AsyncSequence`; pages are fetched as the loop needs them.
///
///     for try await device in CursorPages { cursor in
///         let page = try await session.client.listMyDevices(query: .init(cursor: cursor)).ok.body.json
///         return (page.items, page.nextCursor)
///     } { ... }
public struct CursorPages<Item: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Item
    public typealias FetchPage = @Sendable (_ cursor: String?) async throws -> (items: [Item], nextCursor: String?)

    private let fetch: FetchPage

    public init(_ fetch: @escaping FetchPage) {
        self.fetch = fetch
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(fetch: fetch)
    }

    /// The same list a whole page at a time, for screens that append page by page.
    public var pages: Pages { Pages(fetch: fetch) }

    public struct Pages: AsyncSequence, Sendable {
        public typealias Element = [Item]
        let fetch: FetchPage

        public func makeAsyncIterator() -> PageIterator { PageIterator(fetch: fetch) }
    }

    public struct PageIterator: AsyncIteratorProtocol, Sendable {
        let fetch: FetchPage
        var cursor: String?
        var finished = false

        /// True once the server said the page it sent was the last.
        public var isFinished: Bool { finished }

        public mutating func next() async throws -> [Item]? {
            guard !finished else { return nil }
            let page = try await fetch(cursor)
            cursor = page.nextCursor
            finished = page.nextCursor == nil
            return page.items
        }
    }

    public struct Iterator: AsyncIteratorProtocol {
        let fetch: FetchPage
        var buffer: [Item] = []
        var cursor: String?
        var finished = false

        public mutating func next() async throws -> Item? {
            while buffer.isEmpty {
                guard !finished else { return nil }
                let page = try await fetch(cursor)
                buffer = page.items.reversed()
                cursor = page.nextCursor
                finished = page.nextCursor == nil
            }
            return buffer.popLast()
        }
    }
}
