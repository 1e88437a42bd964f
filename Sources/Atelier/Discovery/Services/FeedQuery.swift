import Foundation
import SQLKit

/// The statement that picks a feed page: the ids and sort keys of up to `limit + 1` active products
/// in sort-key order (FeedService reads their views). Built apart so that its plan can be tested.
struct FeedQuery {
    var kind: FeedService.Kind
    var dialect: String
    var asOf: Date
    var followedStores: [UUID]
    var followedBrands: [UUID]
    /// Conditions on products `p` (SavedSearchService.feedConditions).
    var savedSearches: [SQLQueryString]
    /// The active stores of the place filter, if there is one.
    var nearbyStores: [UUID]?
    var genders: [String]?
    var uploadedSince: Date?
    /// The shopping preferences the discover feed holds to, as a product query's attribute filters.
    var shopping: ProductSearchQuery?
    var cursor: FeedCursor?
    var limit: Int
    /// The stores the shopper may see (when there is no place filter; `nearbyStores` are visible ones).
    var visibility: StoreVisibility = .publicOnly

    var statement: SQLQueryString {
        var query: SQLQueryString = """
            SELECT p.id, p.feed_sort_key FROM \(ident: Product.schema) p
            WHERE p.status = \(bind: Product.Status.active.rawValue)
            AND p.created_at < \(bind: asOf.addingTimeInterval(1))
            """
        // The store and brand tests stay plain filters, so that SQLite walks the feed index (see
        // SearchConditions.storeColumn). Given an index for the followed stores and brands, SQLite's
        // planner gathered all their products and sorted them once the catalogue was large: at
        // 1 000 000 products, 30–60 ms a page instead of 1–2 ms.
        let conditions = SearchConditions(dialect: dialect)
        let storeColumn = conditions.storeColumn
        if let nearbyStores {
            query.appendInterpolation(unsafeRaw: "\nAND \(storeColumn) IN (")
            query.appendInterpolation(binds: nearbyStores)
            query.appendInterpolation(unsafeRaw: ")")
        } else {
            query.appendInterpolation(unsafeRaw: "\nAND \(storeColumn) IN (SELECT s.id FROM \(Store.schema) s WHERE ")
            query.appendInterpolation(visibility.sql())
            query.appendInterpolation(unsafeRaw: ")")
        }
        switch kind {
        case .following:
            // Followed stores, followed brands, saved searches (at least one of them is there).
            var followed: [SQLQueryString] = savedSearches
            if !followedStores.isEmpty { followed.append("\(unsafeRaw: storeColumn) IN (\(binds: followedStores))") }
            if !followedBrands.isEmpty { followed.append("\(unsafeRaw: conditions.plain("p.brand_id")) IN (\(binds: followedBrands))") }
            query += "\nAND (\(followed.joined(separator: " OR ")))"
        case .discover:
            if !followedStores.isEmpty {
                query.appendInterpolation(unsafeRaw: "\nAND p.store_id NOT IN (")
                query.appendInterpolation(binds: followedStores)
                query.appendInterpolation(unsafeRaw: ")")
            }
            if !followedBrands.isEmpty {
                query.appendInterpolation(unsafeRaw: "\nAND (p.brand_id IS NULL OR p.brand_id NOT IN (")
                query.appendInterpolation(binds: followedBrands)
                query.appendInterpolation(unsafeRaw: "))")
            }
            for condition in savedSearches { query += "\nAND NOT COALESCE(\(condition), FALSE)" }
        }
        if let genders {
            query.appendInterpolation(unsafeRaw: "\nAND p.gender IN (")
            query.appendInterpolation(binds: genders)
            query.appendInterpolation(unsafeRaw: ")")
        }
        if let since = uploadedSince {
            query.appendInterpolation(unsafeRaw: "\nAND p.created_at >= ")
            query.appendInterpolation(bind: since)
        }
        if let shopping { query += conditions.attributeFilters(shopping) }
        if let cursor {
            query.appendInterpolation(unsafeRaw: "\nAND (p.feed_sort_key < ")
            query.appendInterpolation(bind: cursor.sortKey)
            query.appendInterpolation(unsafeRaw: " OR (p.feed_sort_key = ")
            query.appendInterpolation(bind: cursor.sortKey)
            query.appendInterpolation(unsafeRaw: " AND p.id < ")
            query.appendInterpolation(bind: cursor.id)
            query.appendInterpolation(unsafeRaw: "))")
        }
        query.appendInterpolation(unsafeRaw: "\nORDER BY p.feed_sort_key DESC, p.id DESC LIMIT \(limit + 1)")
        return query
    }
}
