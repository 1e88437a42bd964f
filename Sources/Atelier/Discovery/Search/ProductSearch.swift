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
        var items: [ProductCardView]
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

    var sql: any SQLDatabase { db as! any SQLDatabase }
    var conditions: SearchConditions { SearchConditions(dialect: sql.dialect.name) }

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
        let items = try await ProductCardReader(db: db).cards(ids: ranked.ids).filter { $0.isActive && $0.store.isPublic }
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
        // The page and the facets are independent reads: on two connections at once (a read-only
        // request's SQLite reads each take one, `PooledReadDatabase`), a first search waits for the
        // longer of them rather than for both.
        async let counted = facets(filters: filters, tokens: tokens, wanted: wantFacets)
        let keys: [(id: UUID, value: Double)]
        if sort == .relevance, !query.hasFilters, !conditions.isPostgres,
           let top = try await topRanked(tokens, filters: filters, cursor: cursor, rows: page.limit + 1) {
            keys = top
        } else {
            keys = try await rankFully(tokens, filters: filters, sort: sort, cursor: cursor, rows: page.limit + 1)
        }
        let next = keys.count > page.limit ? keys[page.limit - 1] : nil
        let (total, facets) = try await counted
        return .init(
            ids: keys.prefix(page.limit).map(\.id), nextCursor: next.map { SearchCursor(sort: sort, value: $0.value, id: $0.id).encoded },
            total: total, facets: facets)
    }

    /// The first `rows` results after `cursor`, every match filtered and ranked.
    func rankFully(
        _ tokens: [String], filters: SQLQueryString, sort: ProductSearchQuery.Sort, cursor: SearchCursor?, rows: Int
    ) async throws -> [(id: UUID, value: Double)] {
        var inner: SQLQueryString
        if sort == .relevance {
            let ranked = conditions.rankedSource(tokens)
            inner = "SELECT p.id AS id, \(conditions.sortValue(sort, rank: ranked.rank)) AS sv FROM \(ranked.from) WHERE \(ranked.match) AND \(filters)"
        } else {
            inner = "SELECT p.id AS id, \(conditions.sortValue(sort, rank: nil)) AS sv FROM \(ident: Product.schema) p WHERE \(filters)"
            if !tokens.isEmpty { inner += " AND \(conditions.textCondition(tokens))" }
        }
        var outer: SQLQueryString = "SELECT r.id, r.sv FROM (\(inner)) r"
        if let cursor { outer += " WHERE \(conditions.after(cursor))" }
        outer += " ORDER BY r.sv ASC, r.id DESC LIMIT \(unsafeRaw: String(rows))"
        return try await sql.raw(outer).all().map { (id: try $0.decode(column: "id", as: UUID.self), value: try $0.decode(column: "sv", as: Double.self)) }
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
                throw Problem.invalid("categoryId", "\(missing.idString) is not a category")
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
    private func facets(filters: SQLQueryString, tokens: [String], wanted: Bool) async throws -> (Int, Facets) {
        guard wanted else { return (0, Facets()) }
        // One pass over the matches that hands over each facet's values as one joined string,
        // counted here. A GROUP BY per facet sorted the whole result four times over (SQLite, the
        // 28 000 matches of "cotton": 88 ms, and 140 ms where SQLite chose not to materialise it).
        let source = conditions.matchedSource(tokens)
        let query: SQLQueryString = """
            SELECT COUNT(*) AS n, \(conditions.joinedValues("p.brand_id")) AS brands, \(conditions.joinedValues("p.category_id")) AS categories,
            \(conditions.joinedValues("p.store_id")) AS stores, \(conditions.joinedValues("p.colors")) AS colors
            FROM \(source.from) WHERE \(source.match) AND \(filters)
            """
        guard let row = try await sql.raw(query).first() else { return (0, Facets()) }
        let total = try row.decode(column: "n", as: Int.self)
        let (joinedBrands, joinedCategories, joinedStores) = try (
            row.decode(column: "brands", as: String?.self), row.decode(column: "categories", as: String?.self),
            row.decode(column: "stores", as: String?.self))
        // Each list holds an id per match (three times 28 000 for "cotton"): counted side by side,
        // then the three kinds of label read side by side (each read takes a connection of its own).
        async let countedBrands = JoinedValueCounts.idCounts(joinedBrands)
        async let countedCategories = JoinedValueCounts.idCounts(joinedCategories)
        let stores = try JoinedValueCounts.idCounts(joinedStores)
        let colors = try JoinedValueCounts.stringCounts(row.decode(column: "colors", as: String?.self))
        let (brands, categories) = try await (countedBrands, countedCategories)
        async let brandLabels = names(of: Brand.schema, Array(brands.keys))
        async let categoryLabelsRead = categoryLabels(Array(categories.keys))
        let storeNames = try await names(of: Store.schema, Array(stores.keys))
        let (brandNames, categoryNames) = try await (brandLabels, categoryLabelsRead)
        func facets(_ counts: [UUID: Int], labels: [UUID: String]) -> [Facet] {
            Self.top(counts.compactMap { id, n in labels[id].map { Facet(value: id.idString, label: $0, count: n) } })
        }
        return (total, Facets(
            categories: facets(categories, labels: categoryNames),
            brands: facets(brands, labels: brandNames),
            stores: facets(stores, labels: storeNames),
            colors: Self.top(colors.map { Facet(value: $0.key, label: $0.key, count: $0.value) })))
    }

    /// The names of a few brands or stores by id, read in one plain statement.
    private func names(of table: String, _ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [UUID: String] = [:]
        for row in try await sql.raw("SELECT id, name FROM \(ident: table) WHERE id IN (\(binds: ids))").all() {
            names[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "name", as: String.self)
        }
        return names
    }

    /// "Women › Shirts": a category's name after its parent's, since names repeat across the tree.
    private func categoryLabels(_ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        var labels: [UUID: String] = [:]
        for row in try await sql.raw("""
            SELECT c.id, c.name, parent.name AS parent_name FROM \(ident: Category.schema) c
            LEFT JOIN \(ident: Category.schema) parent ON parent.id = c.parent_id WHERE c.id IN (\(binds: ids))
            """).all() {
            let name = try row.decode(column: "name", as: String.self)
            labels[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "parent_name", as: String?.self).map { "\($0) › \(name)" } ?? name
        }
        return labels
    }

    private static func top(_ facets: [Facet]) -> [Facet] {
        Array(facets.sorted { ($0.count, $1.label) > ($1.count, $0.label) }.prefix(facetLimit))
    }
}
