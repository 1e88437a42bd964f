import Foundation
import SQLKit

/// Bounded ranking for the commonest search: words alone, by relevance, on SQLite (issue 19). The
/// full ranking joins every match to its search keys to filter it, then ranks them all (a common
/// word matches tens of thousands). Here the full-text index ranks its matches alone, only the best
/// `candidateCount` are joined and filtered, and the page is taken from those.
///
/// That page is exact when the candidates hold every row that could come before the end of the
/// page: when they are all the matches, or when the last row the page needs ranks strictly better
/// than the worst candidate (every match not taken ranks no better than that candidate). Otherwise,
/// as when one rank is shared by more matches than there are candidates, the caller ranks fully.
extension ProductSearch {
    /// Candidates ranked per page: a few pages' worth, since nearly all matches of a search without
    /// filters pass the rest of them (active products of public stores).
    static func candidateCount(forRows rows: Int) -> Int { max(256, 8 * rows) }

    /// The first `rows` rows (id, sort value) after `cursor`, or nil when they may not be exact.
    func topRanked(
        _ tokens: [String], filters: SQLQueryString, cursor: SearchCursor?, rows: Int, candidates: Int? = nil
    ) async throws -> [(id: UUID, value: Double)]? {
        let candidates = candidates ?? Self.candidateCount(forRows: rows)
        var query: SQLQueryString = """
            WITH f AS MATERIALIZED (\(conditions.bestMatches(tokens, count: candidates, atLeast: cursor?.value)))
            SELECT r.id, r.sv, (SELECT COUNT(*) FROM f) AS candidates, (SELECT MAX(rank) FROM f) AS worst FROM
            (SELECT p.id AS id, CAST(f.rank AS REAL) AS sv FROM f JOIN product_search_keys p ON p.doc_id = f.doc_id WHERE \(filters)) r
            """
        if let cursor { query += " WHERE \(conditions.after(cursor))" }
        query += conditions.pageOrder(rows: rows)
        let found = try await sql.raw(query).all()
        // No row says nothing of how many candidates there were: rank fully (cheap when nothing matches).
        guard let last = found.last else { return nil }
        let taken = try last.decode(column: "candidates", as: Int.self)
        let worst = try last.decode(column: "worst", as: Double.self)
        let page = try found.map(Self.sortKey)
        let exact = taken < candidates || (page.count == rows && page[rows - 1].value < worst)
        return exact ? page : nil
    }
}
