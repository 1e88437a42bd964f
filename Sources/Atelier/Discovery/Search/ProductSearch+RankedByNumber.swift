import Foundation
import SQLKit

/// The full ranking by relevance on the narrow numbered rows (SQLite, issue 19), for a search with
/// words whose filters those rows hold (`SearchConditions.filtersByNumber`). The full ranking joins
/// every match to its wide search-keys row to filter it and to have its id for the order's ties;
/// here every match is filtered on its `product_search_facets` row and only the rows that can be on
/// the page are joined to their ids.
///
/// Those are the rows ranked no worse than the page's last sort value: the `rows`-th best value
/// after the cursor's (or the `rows`-th of all). Every row of that value is taken, so ties are
/// ordered by id as the full ranking orders them, and so are the rows sharing the cursor's value,
/// which the cursor's id decides.
extension ProductSearch {
    func rankedByNumber(
        _ tokens: [String], numberedFilters: SQLQueryString, cursor: SearchCursor?, rows: Int
    ) async throws -> [(id: UUID, value: Double)] {
        try await rankedByNumber(tokens, numberedFilters: numberedFilters, cursor: cursor, rows: rows, tallying: false).map(Self.sortKey)
    }

    /// The page as `rankedByNumber` ranks it, and the total and facets of every match counted in
    /// the same pass: the matches are found, filtered and ranked once, kept, and both the page and
    /// `facet_tally` read them. As two statements side by side, each match was found in the
    /// full-text index and sought among the numbered rows twice. The facets are nil when the page is
    /// empty (no match, or a cursor past the last): then they were not counted.
    func rankedByNumberWithFacets(
        _ tokens: [String], numberedFilters: SQLQueryString, cursor: SearchCursor?, rows: Int
    ) async throws -> (keys: [(id: UUID, value: Double)], facets: (Int, Facets)?) {
        let found = try await rankedByNumber(tokens, numberedFilters: numberedFilters, cursor: cursor, rows: rows, tallying: true)
        guard let first = found.first else { return ([], nil) }
        let (total, counts) = try await tallied(first, byNumber: true)
        return (try found.map(Self.sortKey), (total, try await labeled(counts)))
    }

    /// With `tallying`, every match is kept (the facets count them all, a cursor or not) and each
    /// row carries the total (`n`) and the tally (`tally`), computed once for the statement.
    private func rankedByNumber(
        _ tokens: [String], numberedFilters: SQLQueryString, cursor: SearchCursor?, rows: Int, tallying: Bool
    ) async throws -> [any SQLRow] {
        let source = conditions.listedMatchesByNumber(tokens, filters: numberedFilters)
        let rank = SearchConditions.fullTextRank
        var matches: SQLQueryString = "SELECT product_search_fts.rowid AS doc_id, CAST(\(rank) AS REAL) AS sv"
        if tallying { matches += ", p.brand_no, p.category_no, p.store_no, p.colors" }
        matches += " FROM \(source.from) WHERE \(source.match)"
        var pastCursor: SQLQueryString = ""
        var onPage: SQLQueryString = ""
        if let cursor {
            if tallying { onPage = "m.sv >= \(bind: cursor.value) AND " } else { matches += " AND \(rank) >= \(bind: cursor.value)" }
            pastCursor = " WHERE sv > \(bind: cursor.value)"
        }
        // Uncorrelated, the two subqueries run once for the statement, not per row.
        let counted: SQLQueryString = tallying
            ? ", (SELECT COUNT(*) FROM m) AS n, (SELECT \(unsafeRaw: FacetTally.functionName)(brand_no, category_no, store_no, colors) FROM m) AS tally"
            : ""
        var query: SQLQueryString = """
            WITH m AS MATERIALIZED (\(matches))
            SELECT r.id, r.sv\(counted) FROM (SELECT k.id AS id, m.sv AS sv FROM m JOIN product_search_keys k ON k.doc_id = m.doc_id
            WHERE \(onPage)m.sv <= COALESCE((SELECT sv FROM m\(pastCursor) ORDER BY sv LIMIT 1 OFFSET \(unsafeRaw: String(rows - 1))), 1e308)) r
            """
        if let cursor { query += " WHERE \(conditions.after(cursor))" }
        query += conditions.pageOrder(rows: rows)
        return try await sql.raw(query).all()
    }
}
