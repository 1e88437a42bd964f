import AtelierAPI
import Foundation
import Observation

/// Picwear's search: words and filters, results a page at a time, and the facets of the whole
/// result (categories, brands, stores, colours with their counts) to narrow it. A view binds
/// `query.q`, calls `search()` on submit, and `toggle(_:in:)` when a facet is tapped.
@MainActor
@Observable
public final class SearchScreen {
    public enum Facet: Sendable { case category, brand, store, color }

    public var query: Operations.SearchProducts.Input.Query
    public private(set) var results: [Components.Schemas.ProductCard] = []
    public private(set) var facets: Components.Schemas.SearchFacets?
    public private(set) var total = 0
    public var hasMore: Bool { nextCursor != nil }
    public let activity = ScreenActivity()
    private let session: AtelierSession
    private var nextCursor: String?

    public init(session: AtelierSession, query: Operations.SearchProducts.Input.Query = .init(limit: 20)) {
        self.session = session
        self.query = query
    }

    /// The first page for the words and filters as they are now.
    public func search() async {
        guard let page = await fetch(cursor: nil) else { return }
        (results, facets, total) = (page.items, page.facets, page.total)
    }

    /// The next page of the same search, appended.
    public func loadMore() async {
        guard let cursor = nextCursor, let page = await fetch(cursor: cursor) else { return }
        results += page.items
    }

    private func fetch(cursor: String?) async -> Components.Schemas.SearchResults? {
        var asked = query
        asked.cursor = cursor
        guard let page = await activity.run({ [session, asked] in try await session.search.searchProducts(query: asked) }) else { return nil }
        nextCursor = page.nextCursor
        return page
    }

    /// Whether a facet's value narrows the search now (a chip drawn selected).
    public func isSelected(_ value: String, in facet: Facet) -> Bool {
        self[facet].contains(value)
    }

    /// Adds or removes one facet value and searches again from the first page.
    public func toggle(_ value: String, in facet: Facet) async {
        var values = self[facet]
        if let index = values.firstIndex(of: value) { values.remove(at: index) } else { values.append(value) }
        self[facet] = values
        await search()
    }

    private subscript(facet: Facet) -> [String] {
        get {
            switch facet {
            case .category: query.categoryId ?? []
            case .brand: query.brandId ?? []
            case .store: query.storeId ?? []
            case .color: query.color ?? []
            }
        }
        set {
            let values = newValue.isEmpty ? nil : newValue
            switch facet {
            case .category: query.categoryId = values
            case .brand: query.brandId = values
            case .store: query.storeId = values
            case .color: query.color = values
            }
        }
    }
}
