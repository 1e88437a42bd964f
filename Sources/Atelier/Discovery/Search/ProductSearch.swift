import Fluent
import Foundation
import SQLKit

/// Product search (discovery.md, Search): full text with prefix matching over the search index,
/// the filters, five sorts, cursor paging, and facet counts over the whole result.
struct ProductSearch {
    struct Facet: Sendable, Equatable {
        /// The id (brand, category, store) or the colour name to filter by.
        var value: String
        var label: String
        var count: Int
    }

    struct Facets: Sendable {
        var categories: [Facet] = []
        var brands: [Facet] = []
        var stores: [Facet] = []
        var colors: [Facet] = []
    }

    struct Results: Sendable {
        var items: [ProductView]
        var nextCursor: String?
        var total: Int
        var facets: Facets
        var sort: ProductSearchQuery.Sort
    }

    static let facetLimit = 30

    let db: any Database
    /// Where ranked pages are kept for a while (the API and web search pass the app's).
    var cache: SearchResultCache?
    var now: Date = Date()

    private var sql: any SQLDatabase { db as! any SQLDatabase }
    private var conditions: SearchConditions { SearchConditions(dialect: sql.dialect.name) }

    func run(_ rawQuery: ProductSearchQuery, cursor rawCursor: String?, limit: Int?, facets wantFacets: Bool = true) async throws -> Results {
        let query = try rawQuery.validated()
        let page = try PageRequest(limit: limit, cursor: nil)
        let sort = query.effectiveSort
        let cursor = try rawCursor.map { try SearchCursor.decode($0, for: sort) }
        let key = "\(query)|\(rawCursor ?? "")|\(page.limit)|\(wantFacets)"
        let ranked: RankedSearchPage
        if let cached = cache?.value(for: key, now: now) {
            ranked = cached
        } else {
            let generation = cache?.generation ?? 0
            ranked = try await rank(query, sort: sort, cursor: cursor, page: page, facets: wantFacets)
            cache?.store(ranked, for: key, generation: generation, now: now)
        }
        // Read fresh: a product hidden since the page was ranked is left out.
        let items = try await ProductViewReader(db: db).views(ids: ranked.ids).filter { $0.product.isActive && $0.store.isPublic }
        return Results(items: items, nextCursor: ranked.nextCursor, total: ranked.total, facets: ranked.facets, sort: sort)
    }

    /// The ids of one page in order, the next cursor, and (if asked) the total and facets.
    private func rank(
        _ query: ProductSearchQuery, sort: ProductSearchQuery.Sort, cursor: SearchCursor?, page: PageRequest, facets wantFacets: Bool
    ) async throws -> RankedSearchPage {
        guard let filters = try await filters(for: query) else {
            return .init(ids: [], nextCursor: nil, total: 0, facets: Facets())
        }
        let tokens = query.tokens

        var inner: SQLQueryString
        if sort == .relevance {
            let ranked = conditions.rankedSource(tokens)
            inner = "SELECT p.id AS id, \(conditions.sortValue(sort, rank: ranked.rank)) AS sv FROM \(ranked.from) WHERE \(ranked.match) AND \(filters)"
        } else {
            inner = "SELECT p.id AS id, \(conditions.sortValue(sort, rank: nil)) AS sv FROM \(ident: Product.schema) p WHERE \(filters)"
            if !tokens.isEmpty { inner += " AND \(conditions.textCondition(tokens))" }
        }
        var outer: SQLQueryString = "SELECT r.id, r.sv FROM (\(inner)) r"
        if let cursor {
            outer += " WHERE (r.sv > \(bind: cursor.value) OR (r.sv = \(bind: cursor.value) AND r.id < \(bind: cursor.id)))"
        }
        outer += " ORDER BY r.sv ASC, r.id DESC LIMIT \(unsafeRaw: String(page.limit + 1))"

        let rows = try await sql.raw(outer).all()
        let keys = try rows.map { (id: try $0.decode(column: "id", as: UUID.self), value: try $0.decode(column: "sv", as: Double.self)) }
        let next = keys.count > page.limit ? keys[page.limit - 1] : nil
        let (total, facets) = wantFacets ? try await self.facets(filters: filters, tokens: tokens) : (0, Facets())
        return .init(
            ids: keys.prefix(page.limit).map(\.id), nextCursor: next.map { SearchCursor(sort: sort, value: $0.value, id: $0.id).encoded },
            total: total, facets: facets)
    }

    /// The whole query (words and filters) as one condition on products `p`, or nil when it
    /// cannot match anything. Categories deleted since the query was saved are left out.
    func matchCondition(_ query: ProductSearchQuery) async throws -> SQLQueryString? {
        guard let filters = try await filters(for: query, requireCategories: false) else { return nil }
        let tokens = query.tokens
        return tokens.isEmpty ? "(\(filters))" : "(\(filters) AND \(conditions.textCondition(tokens)))"
    }

    /// The filter conditions of a valid query, or nil when its place holds no store (nothing can match).
    func filters(for query: ProductSearchQuery, requireCategories: Bool = true) async throws -> SQLQueryString? {
        var paths: [String] = []
        if !query.categoryIDs.isEmpty {
            let found = try await Category.query(on: db).filter(\.$id ~~ query.categoryIDs).all()
            if requireCategories, let missing = query.categoryIDs.first(where: { id in !found.contains { $0.id == id } }) {
                throw Problem.invalid("categoryId", "\(missing) is not a category")
            }
            if found.isEmpty { return nil }
            paths = found.map(\.path)
        }
        var placeStoreIDs: [UUID]?
        if let near = query.near {
            placeStoreIDs = try await StoreLocations(db: db).activeStoreIDs(within: near.radiusKm, ofLat: near.lat, lng: near.lng)
            if placeStoreIDs?.isEmpty == true { return nil }
        }
        return conditions.filters(query, categoryPaths: paths, placeStoreIDs: placeStoreIDs)
    }

    /// How many results there are in all, and per category, brand, store and colour (most first).
    private func facets(filters: SQLQueryString, tokens: [String]) async throws -> (Int, Facets) {
        // The result set once (a CTE used four times is materialised by both databases), then one
        // small GROUP BY per facet: a few hundred rows in all, however many products match.
        var matched: SQLQueryString = "SELECT p.brand_id, p.category_id, p.store_id, p.colors FROM \(ident: Product.schema) p WHERE \(filters)"
        if !tokens.isEmpty { matched += " AND \(conditions.textCondition(tokens))" }
        let query: SQLQueryString = """
            WITH r AS (\(matched))
            SELECT 'brand' AS facet, r.brand_id AS id, NULL AS colors, COUNT(*) AS n FROM r WHERE r.brand_id IS NOT NULL GROUP BY r.brand_id
            UNION ALL SELECT 'category', r.category_id, NULL, COUNT(*) FROM r GROUP BY r.category_id
            UNION ALL SELECT 'store', r.store_id, NULL, COUNT(*) FROM r GROUP BY r.store_id
            UNION ALL SELECT 'colors', NULL, r.colors, COUNT(*) FROM r GROUP BY r.colors
            """
        var total = 0
        var brands: [UUID: Int] = [:], categories: [UUID: Int] = [:], stores: [UUID: Int] = [:], colors: [String: Int] = [:]
        for row in try await sql.raw(query).all() {
            let n = try row.decode(column: "n", as: Int.self)
            switch try row.decode(column: "facet", as: String.self) {
            case "brand": brands[try row.decode(column: "id", as: UUID.self)] = n
            case "category":
                categories[try row.decode(column: "id", as: UUID.self)] = n
                total += n  // every product has one category
            case "store": stores[try row.decode(column: "id", as: UUID.self)] = n
            default:
                for color in try row.decode(column: "colors", as: String?.self)?.split(separator: ",") ?? [] { colors[String(color), default: 0] += n }
            }
        }
        let brandNames = try await Brand.query(on: db).filter(\.$id ~~ Array(brands.keys)).field(\.$id).field(\.$name).all()
        let categoryNames = try await categoryLabels(Array(categories.keys))
        let storeNames = try await Store.query(on: db).filter(\.$id ~~ Array(stores.keys)).field(\.$id).field(\.$name).all()
        func facets(_ counts: [UUID: Int], label: (UUID) -> String?) -> [Facet] {
            Self.top(counts.compactMap { id, n in label(id).map { Facet(value: id.uuidString, label: $0, count: n) } })
        }
        return (total, Facets(
            categories: facets(categories) { categoryNames[$0] },
            brands: facets(brands) { id in brandNames.first { $0.id == id }?.name },
            stores: facets(stores) { id in storeNames.first { $0.id == id }?.name },
            colors: Self.top(colors.map { Facet(value: $0.key, label: $0.key, count: $0.value) })))
    }

    /// "Women › Shirts": a category's name after its parent's, since names repeat across the tree.
    private func categoryLabels(_ ids: [UUID]) async throws -> [UUID: String] {
        let categories = try await Category.query(on: db).filter(\.$id ~~ ids).all()
        let parents = try await Category.query(on: db).filter(\.$id ~~ categories.compactMap(\.parentID)).all()
        var labels: [UUID: String] = [:]
        for category in categories {
            let parent = parents.first { $0.id == category.parentID }
            labels[category.id!] = parent.map { "\($0.name) › \(category.name)" } ?? category.name
        }
        return labels
    }

    private static func top(_ facets: [Facet]) -> [Facet] {
        Array(facets.sorted { ($0.count, $1.label) > ($1.count, $0.label) }.prefix(facetLimit))
    }
}
