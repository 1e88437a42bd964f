import Fluent
import Foundation
import SQLKit

/// The following and discover feeds (discovery.md). Following: active products of the stores and
/// brands the user follows. Discover: active products the following feed would not show. Both
/// honour the user's filters and page through one `asOf` snapshot in sort-key order.
struct FeedService {
    enum Kind: Sendable { case following, discover }

    struct FeedPage: Sendable {
        var items: [ProductCardView]
        var nextCursor: String?
        var asOf: Date
    }

    let db: any Database
    let core: CoreServices

    func page(
        _ kind: Kind, for user: User, filters: FeedFilters, asOf requestedAsOf: Date?, cursor rawCursor: String?, limit: Int?,
        visibility: StoreVisibility = .publicOnly
    ) async throws -> FeedPage {
        let page = try PageRequest(limit: limit, cursor: nil)
        let cursor = try rawCursor.map(FeedCursor.decode)
        if let cursor, let redrawn = try await FeedSortKeyRedraw(db: db, core: core).latest(), redrawn > cursor.asOf {
            throw Problem.conflict("The feed was reshuffled since this page was loaded; start again from the top.", field: "cursor")
        }
        let now = core.clock.now()
        let asOfMilliseconds = cursor?.asOfMilliseconds ?? FeedCursor.milliseconds(min(requestedAsOf ?? now, now))
        let asOf = Date(timeIntervalSince1970: Double(asOfMilliseconds) / 1000)
        let userID = try user.requireID()

        let follows = FollowService(db: db, core: core)
        let storeIDs = try await follows.followedIDs(.store, by: userID)
        let brandIDs = try await follows.followedIDs(.brand, by: userID)
        let savedSearches = try await SavedSearchService(db: db, core: core).feedConditions(for: userID)
        if kind == .following, storeIDs.isEmpty, brandIDs.isEmpty, savedSearches.isEmpty {
            return FeedPage(items: [], nextCursor: nil, asOf: asOf)
        }
        let nearby = try await storesInPlace(filters.place, visibility: visibility)
        if let nearby, nearby.isEmpty { return FeedPage(items: [], nextCursor: nil, asOf: asOf) }

        let query = FeedQuery(
            kind: kind, dialect: db.sql.dialect.name, asOf: asOf, followedStores: storeIDs, followedBrands: brandIDs,
            savedSearches: savedSearches, nearbyStores: nearby, genders: filters.productGenders,
            uploadedSince: filters.uploadedSince(now: now, timeZone: TimeZone(identifier: user.timeZone) ?? TimeZone(identifier: "UTC")!),
            shopping: filters.shopping?.query, cursor: cursor, limit: page.limit, visibility: visibility
        ).statement
        let rows = try await db.sql.raw(query).all()
        let keys = try rows.map { (id: try $0.decode(column: "id", as: UUID.self), key: try $0.decode(column: "feed_sort_key", as: Double.self)) }
        let cards = try await ProductCardReader(db: db).cards(ids: Array(keys.prefix(page.limit).map(\.id)))
        let next = keys.count > page.limit ? keys[page.limit - 1] : nil
        return FeedPage(
            items: cards,
            nextCursor: next.map { FeedCursor(asOfMilliseconds: asOfMilliseconds, sortKey: $0.key, id: $0.id).encoded },
            asOf: asOf)
    }

    /// The active stores within the place, or nil when there is no place filter.
    private func storesInPlace(_ place: FeedFilters.Place?, visibility: StoreVisibility) async throws -> [UUID]? {
        let locations = StoreLocations(db: db, visibility: visibility)
        switch place {
        case nil: return nil
        case .radius(let lat, let lng, let km): return try await locations.activeStoreIDs(within: Double(km), ofLat: lat, lng: lng)
        case .city(let city): return try await locations.activeStoreIDs(inCity: city)
        }
    }
}
