import Fluent
import Foundation
import Vapor

/// `/search`: the search page with its filters and facet counts (a GET form, so every search is a
/// link), "More" paging that the infinite-scroll script follows, and "Save this search".
enum SearchPage {
    struct Option: Encodable {
        var value: String
        var label: String
        var count: Int?
        var checked: Bool
    }

    struct FilterGroup: Encodable {
        var name: String
        var title: String
        var options: [Option]
        /// Beyond the first few, behind "More".
        var moreOptions: [Option]
        var hasMore: Bool

        init(name: String, title: String, options: [Option]) {
            // Checked ones stay in view.
            let ordered = options.filter(\.checked) + options.filter { !$0.checked }
            self.name = name
            self.title = title
            self.options = Array(ordered.prefix(SearchPage.visibleOptions))
            self.moreOptions = Array(ordered.dropFirst(SearchPage.visibleOptions))
            self.hasMore = !moreOptions.isEmpty
        }
    }

    static let visibleOptions = 8

    struct Context: WebPageContext {
        var page: PageContext
        var q: String
        var sorts: [Option]
        var groups: [FilterGroup]
        var priceMin: String
        var priceMax: String
        var onSale: Bool
        var total: Int
        var products: [PublicCatalogPages.ProductCard]
        var moreURL: String?
        var searched: Bool
        /// The search as the "Save search" form sends it.
        var saveQuery: String
        /// The shopping preferences that filled open filters, in words ("colours and sizes"), and
        /// the explicit choice the form and "More" carry ("true", "false" or nil).
        var preferencesNote: String?
        var preferencesChoice: String?
        /// This search with the preferences turned the other way (signed-in people only).
        var preferencesToggleURL: String?
    }

    static let sortLabels: [(ProductSearchQuery.Sort, String)] = [
        (.relevance, "Best match"), (.newest, "Newest"), (.priceAsc, "Price: low to high"), (.priceDesc, "Price: high to low"),
        (.mostLiked, "Most liked"),
        (.topRated, "Top rated"),
    ]

    static func render(_ req: Request) async throws -> View {
        // The filters show what the person picked; the search also holds to their preferences.
        let query = try parse(req)
        let user = req.webSessionUser
        let choice = user == nil ? nil : req.query[String.self, at: "preferences"].map { $0 == "true" || $0 == "on" }
        var held = query
        let filled = try await req.atelier.shoppingPreferences.applying(for: user?.id, requested: choice, db: req.db)?.fill(&held) ?? []
        let cursor = req.query[String.self, at: "cursor"]
        let searched = held
        let visibility = try await req.storeVisibility(for: user)
        let results = try await req.reading { db in
            try await ProductSearch(req, db: db, visibility: visibility).run(searched, cursor: cursor, limit: 24)
        }
        let cards = PublicCatalogPages.productCards(cards: results.items, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        func options(_ facets: [ProductSearch.Facet], selected: [String]) -> [Option] {
            var list = facets.map { Option(value: $0.value.lowercased(), label: $0.label, count: $0.count, checked: selected.contains($0.value.lowercased())) }
            for value in selected where !list.contains(where: { $0.value == value }) {
                list.append(Option(value: value, label: facets.first { $0.value.lowercased() == value }?.label ?? "Selected", count: 0, checked: true))
            }
            return list
        }
        let ids = { (list: [UUID]) in list.map { $0.idString } }
        let groups = [
            FilterGroup(name: "categoryId", title: "Category", options: options(results.facets.categories, selected: ids(query.categoryIDs))),
            FilterGroup(name: "brandId", title: "Brand", options: options(results.facets.brands, selected: ids(query.brandIDs))),
            FilterGroup(name: "storeId", title: "Store", options: options(results.facets.stores, selected: ids(query.storeIDs))),
            FilterGroup(name: "color", title: "Colour", options: options(results.facets.colors, selected: query.colors)),
            FilterGroup(name: "gender", title: "For", options: ["women", "men", "unisex"].map {
                Option(value: $0, label: $0.capitalized, count: nil, checked: query.genders.contains($0))
            }),
        ].filter { !$0.options.isEmpty }
        var more: String?
        if let cursor = results.nextCursor {
            var items = query.urlQueryItems
            if let choice { items.append(.init(name: "preferences", value: String(choice))) }
            items.append(.init(name: "cursor", value: cursor))
            more = url(items)
        }
        let title = query.text.map { "“\($0)”" } ?? "Search"
        return try await req.renderPage("discovery/search", Context(
            page: PageContext(req, title: title), q: query.text ?? "",
            sorts: sortLabels.map { Option(value: $0.0.rawValue, label: $0.1, count: nil, checked: $0.0 == results.sort) },
            groups: groups, priceMin: query.priceMin.map { String($0 / 100) } ?? "", priceMax: query.priceMax.map { String($0 / 100) } ?? "",
            onSale: query.onSale, total: results.total, products: cards, moreURL: more, searched: !query.urlQueryItems.isEmpty,
            saveQuery: query.urlQuery, preferencesNote: filled.isEmpty ? nil : ShoppingPreferences.describe(filled),
            preferencesChoice: choice.map { String($0) },
            preferencesToggleURL: user == nil ? nil : url(query.urlQueryItems + [.init(name: "preferences", value: String(filled.isEmpty))])))
    }

    static func url(_ items: [URLQueryItem]) -> String {
        var components = URLComponents()
        components.queryItems = items
        return "/search?" + (components.percentEncodedQuery ?? "")
    }

    /// `POST /search/save`: saves the search in the form's `query` under `name`.
    static func save(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var name: String; var query: String }
        let form = try req.content.decode(Form.self)
        var components = URLComponents()
        components.percentEncodedQuery = form.query
        let query = try parse(items: components.queryItems ?? [])
        _ = try await SavedSearchService(db: req.db, core: req.core).create(named: form.name, query: query, by: user)
        Flash.set("success", "Saved. New pieces matching “\(form.name)” will show in your following feed.", on: req)
        return req.redirect(to: "/search?\(query.urlQuery)")
    }

    static func parse(_ req: Request) throws -> ProductSearchQuery {
        var components = URLComponents()
        components.percentEncodedQuery = req.url.query
        return try parse(items: components.queryItems ?? [])
    }

    /// The page's parameters as a search. Prices are typed in whole currency units; ids that are
    /// not ids are dropped (links get edited by hand), everything else is checked as in the API.
    static func parse(items: [URLQueryItem]) throws -> ProductSearchQuery {
        func all(_ name: String) -> [String] { items.filter { $0.name == name }.compactMap(\.value).filter { !$0.isEmpty } }
        func first(_ name: String) -> String? { all(name).first }
        func price(_ name: String) -> Int? { first(name).flatMap(Double.init).map { Int(($0 * 100).rounded()) } }
        var query = ProductSearchQuery(
            text: first("q"), categoryIDs: all("categoryId").compactMap(UUID.init(uuidString:)),
            storeIDs: all("storeId").compactMap(UUID.init(uuidString:)), brandIDs: all("brandId").compactMap(UUID.init(uuidString:)),
            colors: all("color"), sizes: all("size"), genders: all("gender"), priceMin: price("priceMin"), priceMax: price("priceMax"),
            onSale: first("onSale") == "true" || first("onSale") == "on", sort: first("sort").flatMap(ProductSearchQuery.Sort.init(rawValue:)),
            styles: all("style"))
        if let lat = first("lat").flatMap(Double.init), let lng = first("lng").flatMap(Double.init) {
            query.near = .init(lat: lat, lng: lng, radiusKm: first("radiusKm").flatMap(Double.init) ?? SearchParameters.defaultRadiusKm)
        }
        return try query.validated()
    }
}
