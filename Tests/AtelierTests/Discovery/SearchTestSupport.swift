import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

struct SearchResultsBody: Decodable {
    struct Facet: Decodable, Equatable { var value: String; var label: String; var count: Int }
    struct Facets: Decodable { var categories: [Facet]; var brands: [Facet]; var stores: [Facet]; var colors: [Facet] }
    var items: [ProductCardBody]
    var nextCursor: String?
    var total: Int
    var sort: String
    var facets: Facets
}

/// One product as a search test describes it.
struct SearchProductSpec {
    var title: String
    var description = ""
    var category: Category
    var brand: Brand?
    var gender = "women"
    var price = 49_900
    var originalPrice: Int?
    var colors = ["white"]
    var sizes: [(String, Int)] = [("M", 1)]
    var active = true
}

extension TestApp {
    /// Creates the product through the product service (so the search index is kept as in
    /// production), one second after the previous one so that "newest" has a defined order.
    func product(_ spec: SearchProductSpec, in store: Store, owner: Session) async throws -> Product {
        let user = try #require(try await User.find(UUID(uuidString: owner.user.id), on: app.db))
        let photo = try await placeholderPhoto(uploader: owner.user.id)
        let draft = ProductDraft(
            title: spec.title, description: spec.description, brandID: spec.brand?.id, categoryID: spec.category.id, gender: spec.gender,
            priceMinor: spec.price, originalPriceMinor: spec.originalPrice, currency: "SEK", colors: spec.colors, colorName: "",
            fabric: "", styles: [], variants: spec.sizes.map { .init(size: $0.0, color: nil, stock: $0.1, sku: nil) },
            photoIDs: [UUID(uuidString: photo)!], status: spec.active ? .active : .inactive)
        clock.advance(by: 1)
        return try await ProductService(db: app.db, core: app.core, catalogChanges: app.atelier.catalogChanges, catalogIndexing: app.atelier.catalogIndexing, mediaLibrary: app.atelier.media).create(in: store, draft: draft, by: user)
    }

    func search(_ query: String) async throws -> SearchResultsBody {
        let response = try await send(.GET, "/api/v1/search/products?\(query)")
        #expect(response.status == .ok, "\(response.body.string)")
        return try response.content.decode(SearchResultsBody.self)
    }

    /// Every result of a search, page by page.
    func searchAll(_ query: String, limit: Int = 2) async throws -> [ProductCardBody] {
        var items: [ProductCardBody] = []
        var cursor: String?
        repeat {
            let page = try await search(query + "&limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""))
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }
}

extension ProductSearch {
    /// A validated query's filters in both forms the search writes: by id (on every database) and by
    /// facet number (SQLite; the query's filters must all be ones the numbered rows hold). nil when
    /// nothing can match (a place with no store in it).
    func filtersBothWays(_ query: ProductSearchQuery) async throws -> (byID: SQLQueryString, byNumber: SQLQueryString)? {
        guard let resolved = try await resolveFilters(of: query) else { return nil }
        let (paths, places) = (resolved.categoryPaths, resolved.placeStoreIDs)
        let byNumber = try #require(conditions.filtersByNumber(query, categoryPaths: paths, placeStoreIDs: places))
        return (conditions.filters(query, categoryPaths: paths, placeStoreIDs: places), byNumber)
    }
}
