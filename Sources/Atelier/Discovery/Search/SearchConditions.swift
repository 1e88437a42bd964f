import Fluent
import Foundation
import SQLKit

/// The SQL pieces of a product search, for both dialects: the full-text match and the filters as
/// AND-ed conditions on products aliased `p`. The search, its facets and saved searches in the
/// following feed are built from them.
struct SearchConditions {
    let dialect: String
    /// The stores the searcher may see.
    var visibility: StoreVisibility = .publicOnly
    var isPostgres: Bool { dialect == "postgresql" }

    /// `p.store_id` for a membership test that must not pick the index. SQLite's planner otherwise
    /// walks the store index, one store at a time, and checks every product of the store against
    /// the rest (seconds at 100 000 products); the unary `+` keeps the test a plain filter.
    var storeColumn: String { plain("p.store_id") }

    /// `column` as a plain filter on SQLite (see `plainFilter`).
    func plain(_ column: String) -> String { plainFilter(column, dialect: dialect) }

    /// The words as a full-text query: every word must be there, each as a prefix.
    func matchExpression(_ tokens: [String]) -> String {
        isPostgres ? tokens.map { "\($0):*" }.joined(separator: " & ") : tokens.map { "\"\($0)\"*" }.joined(separator: " ")
    }

    /// `p` is one of the products the words match (usable in any WHERE, also nested).
    func textCondition(_ tokens: [String]) -> SQLQueryString {
        if isPostgres {
            return """
                p.id IN (SELECT d.product_id FROM product_search_docs d WHERE d.tsv @@ to_tsquery('simple', \(bind: matchExpression(tokens))))
                """
        }
        return """
            p.id IN (SELECT d.product_id FROM product_search_docs d WHERE d.id IN
            (SELECT rowid FROM product_search_fts WHERE product_search_fts MATCH \(bind: matchExpression(tokens))))
            """
    }

    /// The FROM clause and rank (lower is better) for a relevance-ordered search.
    func rankedSource(_ tokens: [String]) -> (from: SQLQueryString, match: SQLQueryString, rank: SQLQueryString) {
        let expression = matchExpression(tokens)
        if isPostgres {
            return ("product_search_docs d JOIN \(ident: Product.schema) p ON p.id = d.product_id",
                    "d.tsv @@ to_tsquery('simple', \(bind: expression))",
                    "-ts_rank(d.tsv, to_tsquery('simple', \(bind: expression)))")
        }
        return ("product_search_fts JOIN product_search_keys p ON p.doc_id = product_search_fts.rowid",
                "product_search_fts MATCH \(bind: expression)",
                Self.fullTextRank)
    }

    /// SQLite's relevance rank of a full-text row (lower is better): the headline weighs four times
    /// the rest. `bm25`'s value, computed by `FullTextRank` without a statement per row.
    static let fullTextRank: SQLQueryString = "\(unsafeRaw: FullTextRank.functionName)(product_search_fts, 4.0, 1.0)"

    /// SQLite: the `count` best-ranked full-text rows the words match, as `doc_id` and `rank`,
    /// ranked on the full-text index alone, without reading a product; with `atLeast`, only those
    /// ranked no better than it (the rows after a cursor).
    func bestMatches(_ tokens: [String], count: Int, atLeast: Double?) -> SQLQueryString {
        var sql: SQLQueryString = """
            SELECT rowid AS doc_id, \(Self.fullTextRank) AS rank FROM product_search_fts WHERE product_search_fts MATCH \(bind: matchExpression(tokens))
            """
        if let atLeast { sql += " AND \(Self.fullTextRank) >= \(bind: atLeast)" }
        return sql + " ORDER BY rank LIMIT \(unsafeRaw: String(count))"
    }

    /// Rows `r` (columns `id`, `sv`) after a cursor in the search order: by sort value, then id
    /// descending.
    func after(_ cursor: SearchCursor) -> SQLQueryString {
        "(r.sv > \(bind: cursor.value) OR (r.sv = \(bind: cursor.value) AND r.id < \(bind: cursor.id)))"
    }

    /// The search order and page size over rows `r` (columns `id`, `sv`), as a clause to append:
    /// by sort value, then id descending (the order `after` continues).
    func pageOrder(rows: Int) -> SQLQueryString {
        " ORDER BY r.sv ASC, r.id DESC LIMIT \(unsafeRaw: String(rows))"
    }

    /// The FROM clause and condition of every product the words match, as `p` with the columns the
    /// filters and facets read. SQLite goes from each full-text row to its search keys by integer
    /// row id (CreateProductSearchKeys); PostgreSQL reads products.
    func matchedSource(_ tokens: [String]) -> (from: SQLQueryString, match: SQLQueryString) {
        if isPostgres || tokens.isEmpty { return ("\(ident: Product.schema) p", tokens.isEmpty ? "true" : textCondition(tokens)) }
        let ranked = rankedSource(tokens)
        return (ranked.from, ranked.match)
    }

    /// SQLite: the FROM clause and condition of every product the words match that passes
    /// `filters` (from `filtersByNumber`), as `p`, a row of `product_search_facets` (the store,
    /// brand and category as facet numbers).
    func listedMatchesByNumber(_ tokens: [String], filters: SQLQueryString) -> (from: SQLQueryString, match: SQLQueryString) {
        ("product_search_fts JOIN product_search_facets p ON p.doc_id = product_search_fts.rowid",
         "product_search_fts MATCH \(bind: matchExpression(tokens)) AND \(filters)")
    }

    /// PostgreSQL: every value of `column` over the rows of a query, joined by commas into one
    /// string (NULLs left out); nil without rows. (SQLite counts them in the pass, `FacetTally`.)
    func joinedValues(_ column: String) -> SQLQueryString {
        "string_agg(\(unsafeRaw: column)::text, ',')"
    }

    /// Active products of active stores passing every filter but the text. `categoryPaths` are the
    /// paths of the query's categories; `placeStoreIDs` the stores within its place, if it has one.
    func filters(_ q: ProductSearchQuery, categoryPaths: [String], placeStoreIDs: [UUID]?) -> SQLQueryString {
        var sql: SQLQueryString = "p.status = \(bind: Product.Status.active.rawValue)"
        if let placeStoreIDs {
            sql += " AND \(unsafeRaw: storeColumn) IN (\(binds: placeStoreIDs))"
        } else {
            sql += " AND \(unsafeRaw: storeColumn) IN (SELECT s.id FROM \(ident: Store.schema) s WHERE \(visibility.sql()))"
        }
        if !categoryPaths.isEmpty {
            sql += " AND p.category_id IN (SELECT c.id FROM \(ident: Category.schema) c WHERE \(subtrees(categoryPaths)))"
        }
        if !q.storeIDs.isEmpty { sql += " AND p.store_id IN (\(binds: q.storeIDs))" }
        return sql + attributeFilters(q)
    }

    /// SQLite: the same filters on a row of `product_search_facets`, where the store, brand and
    /// category are facet numbers; nil when the query filters on what that row does not hold (sizes
    /// in stock, styles).
    func filtersByNumber(_ q: ProductSearchQuery, categoryPaths: [String], placeStoreIDs: [UUID]?) -> SQLQueryString? {
        guard q.sizes.isEmpty, q.styles?.isEmpty ?? true else { return nil }
        var sql: SQLQueryString = "p.active = 1 AND \(unsafeRaw: plain("p.store_no")) IN "
        if let placeStoreIDs {
            sql += Self.facetNumbers(of: placeStoreIDs)
        } else {
            sql += "(SELECT n.no FROM search_facet_numbers n JOIN \(ident: Store.schema) s ON s.id = n.id WHERE \(visibility.sql()))"
        }
        if !categoryPaths.isEmpty {
            sql += """
                 AND p.category_no IN (SELECT n.no FROM search_facet_numbers n JOIN \(ident: Category.schema) c ON c.id = n.id WHERE \(subtrees(categoryPaths)))
                """
        }
        if !q.storeIDs.isEmpty { sql += " AND p.store_no IN \(Self.facetNumbers(of: q.storeIDs))" }
        return sql + attributeFilters(q, byNumber: true)
    }

    /// The facet numbers of some stores, brands or categories, as a subquery.
    private static func facetNumbers(of ids: [UUID]) -> SQLQueryString {
        "(SELECT n.no FROM search_facet_numbers n WHERE n.id IN (\(binds: ids)))"
    }

    /// Categories `c` in the subtrees of `paths`.
    private func subtrees(_ paths: [String]) -> SQLQueryString {
        let ranges = paths.map { path -> SQLQueryString in
            "(c.path >= \(bind: path) AND c.path < \(bind: Category.subtreeEnd(path)))"
        }
        return ranges.joined(separator: " OR ")
    }

    /// The filters on a product's own attributes (brand, colour, style, size in stock, gender, price,
    /// sale), each as " AND …"; empty when the query has none. The discover feed adds them for a
    /// person's shopping preferences (ShoppingPreferences). `byNumber`: on a row of
    /// `product_search_facets` (`filtersByNumber`), which has no sizes or styles.
    func attributeFilters(_ q: ProductSearchQuery, byNumber: Bool = false) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if !q.brandIDs.isEmpty {
            sql += byNumber ? " AND p.brand_no IN \(Self.facetNumbers(of: q.brandIDs))" : " AND p.brand_id IN (\(binds: q.brandIDs))"
        }
        if !q.colors.isEmpty {
            let tests = q.colors.map { color -> SQLQueryString in "(',' || p.colors || ',') LIKE \(bind: "%,\(color),%")" }
            sql += " AND (\(tests.joined(separator: " OR ")))"
        }
        if !q.sizes.isEmpty {
            sql += """
                 AND EXISTS (SELECT 1 FROM \(ident: ProductVariant.schema) v WHERE v.product_id = p.id AND v.stock - v.held - v.allocated > 0 AND v.size IN (\(binds: q.sizes)))
                """
        }
        if !q.genders.isEmpty { sql += " AND p.gender IN (\(binds: q.productGenders))" }
        // Styles, and the currency but by number, are read from products by id: on SQLite `p` may
        // be a search-keys row, which carries only the columns every search filters on.
        if let styles = q.styles, !styles.isEmpty {
            let tests = styles.map { style -> SQLQueryString in "(',' || sp.styles || ',') LIKE \(bind: "%,\(style),%")" }
            sql += " AND EXISTS (SELECT 1 FROM \(ident: Product.schema) sp WHERE sp.id = p.id AND (\(tests.joined(separator: " OR "))))"
        }
        var price: [SQLQueryString] = []
        if let min = q.priceMin { price.append("p.price_minor >= \(bind: min)") }
        if let max = q.priceMax { price.append("p.price_minor <= \(bind: max)") }
        if !price.isEmpty {
            if let currency = q.priceCurrency {
                let otherCurrency: SQLQueryString = byNumber
                    ? "p.currency <> \(bind: currency)"
                    : "EXISTS (SELECT 1 FROM \(ident: Product.schema) cp WHERE cp.id = p.id AND cp.currency <> \(bind: currency))"
                sql += " AND ((\(price.joined(separator: " AND "))) OR \(otherCurrency))"
            } else {
                sql += " AND \(price.joined(separator: " AND "))"
            }
        }
        if q.onSale { sql += " AND p.original_price_minor IS NOT NULL AND p.original_price_minor > p.price_minor" }
        return sql
    }

    /// The value results are ordered by (ascending; ties newest first), as a double on both dialects.
    func sortValue(_ sort: ProductSearchQuery.Sort, rank: SQLQueryString?) -> SQLQueryString {
        let value: SQLQueryString
        switch sort {
        case .relevance: value = rank ?? "0"
        case .newest: value = "0"
        case .priceAsc: value = "p.price_minor"
        case .priceDesc: value = "-p.price_minor"
        case .mostLiked: value = "-p.like_count"
        case .topRated: value = "-((p.rating_sum + 6.0) / (p.review_count + 2.0))"
        }
        return "CAST(\(value) AS \(unsafeRaw: isPostgres ? "DOUBLE PRECISION" : "REAL"))"
    }
}
