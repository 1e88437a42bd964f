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
    /// The stores the searcher may see (a wholesaler's approved customers see its products too).
    var visibility: StoreVisibility = .publicOnly

    var sql: any SQLDatabase { db.sql }
    var conditions: SearchConditions { SearchConditions(dialect: sql.dialect.name, visibility: visibility) }

    func run(_ rawQuery: ProductSearchQuery, cursor rawCursor: String?, limit: Int?, facets wantFacets: Bool = true) async throws -> Results {
        let query = try rawQuery.validated()
        let page = try PageRequest(limit: limit, cursor: nil)
        let sort = query.effectiveSort
        let cursor = try rawCursor.map { try SearchCursor.decode($0, for: sort) }
        let key = "\(query)|\(rawCursor ?? "")|\(page.limit)|\(wantFacets)|\(visibility)"
        let ranked: RankedSearchPage
        if let cached = cache?.value(for: key, now: now) {
            ranked = cached
        } else {
            let generation = cache?.generation ?? 0
            ranked = try await rank(query, sort: sort, cursor: cursor, page: page, facets: wantFacets)
            cache?.store(ranked, for: key, generation: generation, now: now)
        }
        // Read fresh: a product hidden since the page was ranked is left out.
        let items = try await ProductCardReader(db: db).cards(ids: ranked.ids).filter {
            $0.isActive && visibility.admits(storeID: $0.store.id, isActive: $0.store.isActive, membersOnly: $0.store.membersOnly)
        }
        return Results(items: items, nextCursor: ranked.nextCursor, total: ranked.total, facets: ranked.facets, sort: sort)
    }

    /// The ids of one page in order, the next cursor, and (if asked) the total and facets.
    private func rank(
        _ query: ProductSearchQuery, sort: ProductSearchQuery.Sort, cursor: SearchCursor?, page: PageRequest, facets wantFacets: Bool
    ) async throws -> RankedSearchPage {
        guard let resolved = try await resolveFilters(of: query) else {
            return .init(ids: [], nextCursor: nil, total: 0, facets: Facets())
        }
        let filters = conditions.filters(query, categoryPaths: resolved.categoryPaths, placeStoreIDs: resolved.placeStoreIDs)
        let tokens = query.tokens
        // The page and the facets are independent reads: on two connections at once (a read-only
        // request's SQLite reads each take one, `PooledReadDatabase`), a first search waits for the
        // longer of them rather than for both. With words on SQLite, when the numbered rows hold
        // what the filters read, the ranking by relevance reads those rows and, with filters, counts
        // the facets in the same pass (ProductSearch+RankedByNumber: a fifth less CPU per search of
        // W4v than the two side by side); words alone, the page comes from the best candidates
        // first (ProductSearch+TopRanked) and the facets side by side (one pass for them took more
        // CPU and twice the time of a first search, W4f).
        let wordsAlone = !query.hasFilters && !tokens.isEmpty && !conditions.isPostgres
        let numbered = tokens.isEmpty || conditions.isPostgres
            ? nil : conditions.filtersByNumber(query, categoryPaths: resolved.categoryPaths, placeStoreIDs: resolved.placeStoreIDs)
        let keys: [(id: UUID, value: Double)]
        let counted: (Int, Facets)
        if sort == .relevance, !wordsAlone, wantFacets, let numbered {
            let ranked = try await rankedByNumberWithFacets(tokens, numberedFilters: numbered, cursor: cursor, rows: page.limit + 1)
            keys = ranked.keys
            if let facets = ranked.facets {
                counted = facets
            } else {
                counted = try await facets(filters: filters, tokens: tokens, byNumber: numbered)
            }
        } else {
            async let counting = wantFacets ? facets(filters: filters, tokens: tokens, byNumber: numbered) : (0, Facets())
            if sort == .relevance, wordsAlone,
               let top = try await topRanked(tokens, filters: filters, cursor: cursor, rows: page.limit + 1) {
                keys = top
            } else if sort == .relevance, let numbered {
                keys = try await rankedByNumber(tokens, numberedFilters: numbered, cursor: cursor, rows: page.limit + 1)
            } else {
                keys = try await rankFully(tokens, filters: filters, sort: sort, cursor: cursor, rows: page.limit + 1)
            }
            counted = try await counting
        }
        let next = keys.count > page.limit ? keys[page.limit - 1] : nil
        let (total, facets) = counted
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
        outer += conditions.pageOrder(rows: rows)
        return try await sql.raw(outer).all().map(Self.sortKey)
    }

    /// A ranked row's id and sort value (columns `id`, `sv`).
    static func sortKey(_ row: any SQLRow) throws -> (id: UUID, value: Double) {
        (id: try row.decode(column: "id", as: UUID.self), value: try row.decode(column: "sv", as: Double.self))
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
        try await resolveFilters(of: query, requireCategories: requireCategories).map {
            conditions.filters(query, categoryPaths: $0.categoryPaths, placeStoreIDs: $0.placeStoreIDs)
        }
    }

    /// What a query's filters need read first: the paths of its categories and the stores within
    /// its place.
    struct ResolvedFilters {
        var categoryPaths: [String] = []
        var placeStoreIDs: [UUID]?
    }

    /// nil when nothing can match: no category asked for exists (only without `requireCategories`;
    /// with it, that is a 422), or the place holds no store.
    func resolveFilters(of query: ProductSearchQuery, requireCategories: Bool = true) async throws -> ResolvedFilters? {
        var resolved = ResolvedFilters()
        if !query.categoryIDs.isEmpty {
            let found = try await Category.query(on: db).filter(\.$id ~~ query.categoryIDs).all()
            if requireCategories, let missing = query.categoryIDs.first(where: { id in !found.contains { $0.id == id } }) {
                throw Problem.invalid("categoryId", "\(missing.idString) is not a category")
            }
            if found.isEmpty { return nil }
            resolved.categoryPaths = found.map(\.path)
        }
        if let near = query.near {
            let stores = try await StoreLocations(db: db, visibility: visibility).activeStoreIDs(within: near.radiusKm, ofLat: near.lat, lng: near.lng)
            if stores.isEmpty { return nil }
            resolved.placeStoreIDs = stores
        }
        return resolved
    }
}
