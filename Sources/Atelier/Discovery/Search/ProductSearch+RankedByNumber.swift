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
        let source = conditions.listedMatchesByNumber(tokens, filters: numberedFilters)
        let rank = SearchConditions.fullTextRank
        var matches: SQLQueryString = """
            SELECT product_search_fts.rowid AS doc_id, CAST(\(rank) AS REAL) AS sv FROM \(source.from) WHERE \(source.match)
            """
        var pastCursor: SQLQueryString = ""
        if let cursor {
            matches += " AND \(rank) >= \(bind: cursor.value)"
            pastCursor = " WHERE sv > \(bind: cursor.value)"
        }
        var query: SQLQueryString = """
            WITH m AS MATERIALIZED (\(matches))
            SELECT r.id, r.sv FROM (SELECT k.id AS id, m.sv AS sv FROM m JOIN product_search_keys k ON k.doc_id = m.doc_id
            WHERE m.sv <= COALESCE((SELECT sv FROM m\(pastCursor) ORDER BY sv LIMIT 1 OFFSET \(unsafeRaw: String(rows - 1))), 1e308)) r
            """
        if let cursor { query += " WHERE \(conditions.after(cursor))" }
        query += conditions.pageOrder(rows: rows)
        return try await sql.raw(query).all().map(Self.sortKey)
    }
}
