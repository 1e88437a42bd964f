import Fluent
import Foundation
import SQLKit

/// Product views and share visits, counted in memory on the read path, and the stores' daily likes,
/// counted once each batch of likes has committed; all written to the daily stats tables in one
/// batch by the background worker (and on shutdown, and before the stats are read), so neither a
/// product read nor a like waits for a stats write. A crash loses at most one flush interval of
/// these counts; the likes themselves are in the database when acknowledged.
actor CatalogCounters {
    enum Kind: Sendable { case view, shareVisit }

    private struct Key: Hashable {
        var productID: UUID
        var storeID: UUID
        var day: String
    }

    private struct StoreDay: Hashable {
        var storeID: UUID
        var day: String
    }

    private var pending: [Key: (views: Int, shares: Int)] = [:]
    /// Net likes (likes less unlikes) per store and day.
    private var storeLikes: [StoreDay: Int] = [:]
    static let rowsPerStatement = 200
    private let clock: any AppClock

    init(clock: any AppClock) {
        self.clock = clock
    }

    func add(_ kind: Kind, productID: UUID, storeID: UUID) {
        add(kind, Key(productID: productID, storeID: storeID, day: StatsDay.string(clock.now())))
    }

    private func add(_ kind: Kind, _ key: Key) {
        var counts = pending[key] ?? (0, 0)
        if kind == .view { counts.views += 1 } else { counts.shares += 1 }
        pending[key] = counts
    }

    /// Adds a committed batch's net likes to each store's `day` (`LikeGroupCommit`).
    func addLikes(_ byStore: [UUID: Int], day: String) {
        for (storeID, likes) in byStore where likes != 0 { storeLikes[StoreDay(storeID: storeID, day: day), default: 0] += likes }
    }

    /// The flush writing now, if any: a flush waits for it, so a flush before the stats are read
    /// finds in the database everything counted before it, also what a running flush had taken.
    private var writing: Task<Void, any Error>?

    /// Writes everything counted so far; returns how many product-days and store-days were written.
    @discardableResult
    func flush(on db: any Database) async throws -> Int {
        while let running = writing {
            _ = try? await running.value
            if writing == running { writing = nil }
        }
        let views = pending, likes = storeLikes
        pending = [:]
        storeLikes = [:]
        guard !views.isEmpty || !likes.isEmpty else { return 0 }
        let task = Task { try await Self.write(views: views, likes: likes, on: db) }
        writing = task
        defer { if writing == task { writing = nil } }
        do {
            try await task.value
        } catch {
            for (key, counts) in views {
                let current = pending[key] ?? (0, 0)
                pending[key] = (current.views + counts.views, current.shares + counts.shares)
            }
            for (key, count) in likes { storeLikes[key, default: 0] += count }
            throw error
        }
        return views.count + likes.count
    }

    /// One transaction. Rows are written in key order, so that flushes of two instances at once on
    /// PostgreSQL lock them in one order instead of deadlocking.
    private static func write(views: [Key: (views: Int, shares: Int)], likes: [StoreDay: Int], on db: any Database) async throws {
        try await db.transaction { tx in
            let tsql = tx.sql
            // Many product-days per statement: one statement per product-day kept SQLite's threads busy for
            // hundreds of milliseconds after a busy minute of product pages, and reads waited (issue 19).
            let rows = views.sorted { ($0.key.day, $0.key.productID.idString) < ($1.key.day, $1.key.productID.idString) }
            for start in stride(from: 0, to: rows.count, by: Self.rowsPerStatement) {
                let values = rows[start..<min(rows.count, start + Self.rowsPerStatement)].map { key, counts -> SQLQueryString in
                    "(\(bind: key.productID), \(bind: key.day), \(bind: counts.views), \(bind: counts.shares))"
                }
                try await tsql.raw("""
                    INSERT INTO product_daily_stats (product_id, day, views, share_visits)
                    SELECT v.column1, v.column2, v.column3, v.column4 FROM (VALUES \(values.joined(separator: ", "))) v
                    WHERE EXISTS (SELECT 1 FROM \(ident: Product.schema) WHERE id = v.column1)
                    ON CONFLICT (product_id, day) DO UPDATE SET views = product_daily_stats.views + excluded.views,
                    share_visits = product_daily_stats.share_visits + excluded.share_visits
                    """).run()
            }
            // Each store-day once, its views, share visits and likes together.
            var perStore: [StoreDay: (views: Int, shares: Int, likes: Int)] = [:]
            for (key, counts) in views {
                let storeDay = StoreDay(storeID: key.storeID, day: key.day)
                perStore[storeDay, default: (0, 0, 0)].views += counts.views
                perStore[storeDay, default: (0, 0, 0)].shares += counts.shares
            }
            for (key, count) in likes { perStore[key, default: (0, 0, 0)].likes += count }
            for (key, counts) in perStore.sorted(by: { ($0.key.day, $0.key.storeID.idString) < ($1.key.day, $1.key.storeID.idString) }) {
                try await StoreStatsService.bump(
                    storeID: key.storeID, day: key.day, views: counts.views, shareVisits: counts.shares, likes: counts.likes, on: tsql)
            }
        }
    }
}

/// The per-day series behind the store stats chart.
struct StoreStatsService {
    struct Day: Sendable, Equatable {
        var day: String
        var follows: Int
        var likes: Int
        var views: Int
        var shareVisits: Int
        /// Orders handed over that day, their value (minor units) and clicks through to product shops.
        var orders = 0
        var salesMinor = 0
        var shopClicks = 0
    }

    let db: any Database
    let core: CoreServices

    /// The last `days` days (today included), oldest first, with zeros for quiet days.
    func series(storeID: UUID, days: Int) async throws -> [Day] {
        let today = core.clock.now()
        let labels = (0..<days).reversed().map { StatsDay.string(today.addingTimeInterval(-Double($0) * 86_400)) }
        let rows = try await db.sql.raw("""
            SELECT day, follows, likes, views, share_visits, orders, sales_minor, shop_clicks FROM store_daily_stats
            WHERE store_id = \(bind: storeID) AND day >= \(bind: labels.first ?? "")
            """).all()
        var byDay: [String: Day] = [:]
        for row in rows {
            let day = try row.decode(column: "day", as: String.self)
            byDay[day] = Day(
                day: day, follows: try row.decode(column: "follows", as: Int.self), likes: try row.decode(column: "likes", as: Int.self),
                views: try row.decode(column: "views", as: Int.self), shareVisits: try row.decode(column: "share_visits", as: Int.self),
                orders: try row.decode(column: "orders", as: Int.self), salesMinor: try row.decode(column: "sales_minor", as: Int.self),
                shopClicks: try row.decode(column: "shop_clicks", as: Int.self))
        }
        return labels.map { byDay[$0] ?? Day(day: $0, follows: 0, likes: 0, views: 0, shareVisits: 0) }
    }

    /// Adds to one store-day (follows and likes come from the discovery domain).
    static func bump(storeID: UUID, day: String, views: Int = 0, shareVisits: Int = 0, likes: Int = 0, follows: Int = 0,
                     orders: Int = 0, salesMinor: Int = 0, shopClicks: Int = 0, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            INSERT INTO store_daily_stats (store_id, day, views, share_visits, likes, follows, orders, sales_minor, shop_clicks)
            SELECT \(bind: storeID), \(bind: day), \(bind: views), \(bind: shareVisits), \(bind: likes), \(bind: follows),
            \(bind: orders), \(bind: salesMinor), \(bind: shopClicks)
            WHERE EXISTS (SELECT 1 FROM \(ident: Store.schema) WHERE id = \(bind: storeID))
            ON CONFLICT (store_id, day) DO UPDATE SET views = store_daily_stats.views + excluded.views,
            share_visits = store_daily_stats.share_visits + excluded.share_visits,
            likes = store_daily_stats.likes + excluded.likes, follows = store_daily_stats.follows + excluded.follows,
            orders = store_daily_stats.orders + excluded.orders, sales_minor = store_daily_stats.sales_minor + excluded.sales_minor,
            shop_clicks = store_daily_stats.shop_clicks + excluded.shop_clicks
            """).run()
    }
}
