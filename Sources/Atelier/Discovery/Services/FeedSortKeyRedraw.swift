import Fluent
import Foundation
import SQLKit

/// The daily re-draw of feed sort keys (discovery.md): products of the last 30 days get a fresh
/// random offset, and their store's current upload count sets the heavy-uploader penalty, so a
/// burst of uploads weighs on a store while it is recent and stops weighing once it is not.
/// A feed cursor from before a re-draw would page through a different order; the feeds refuse
/// it (409) and the client starts again from the top.
struct FeedSortKeyRedraw {
    static let window: TimeInterval = 30 * 86_400
    /// The hour of day (UTC) the job runs, when shoppers are fewest.
    static let hourUTC = 4

    let db: any Database
    let core: CoreServices

    func latest() async throws -> Date? {
        try await FeedRedraw.query(on: db).sort(\.$redrawnAt, .descending).first()?.redrawnAt
    }

    /// Re-draws when it is the job's hour and the last re-draw is more than 20 hours old.
    @discardableResult
    func runIfDue() async throws -> Int? {
        let now = core.clock.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard calendar.component(.hour, from: now) == Self.hourUTC else { return nil }
        if let last = try await latest(), now.timeIntervalSince(last) < 20 * 3600 { return nil }
        return try await redraw()
    }

    /// Products read and re-keyed per statement.
    static let batchSize = 500

    /// Re-draws the keys of every product created in the last 30 days; returns how many.
    ///
    /// The products are read and re-keyed a batch at a time, in id order, inside the one write
    /// transaction: feeds see the old keys or the new ones, never a mix, and memory stays one
    /// batch whatever the catalogue's size. (Loading them all first as models took the server's
    /// peak RSS from 88 to 158 MB for the 15 778 recent products of issue 19's benchmark catalogue.)
    @discardableResult
    func redraw(batchSize: Int = Self.batchSize) async throws -> Int {
        let now = core.clock.now()
        let since = now.addingTimeInterval(-Self.window)
        let spread = Double(core.config.feedSpreadHours) * 3600
        return try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            let uploads = try await Self.recentUploads(since: now.addingTimeInterval(-FeedSortKey.uploadsWindow), on: sql)
            var count = 0
            var after: UUID?
            while true {
                var query: SQLQueryString = "SELECT id, store_id, created_at FROM \(ident: Product.schema) WHERE created_at >= \(bind: since)"
                if let after { query += " AND id > \(bind: after)" }
                query += " ORDER BY id LIMIT \(unsafeRaw: String(batchSize))"
                let rows = try await sql.raw(query).all()
                guard !rows.isEmpty else { break }
                var cases: SQLQueryString = ""
                var ids: [UUID] = []
                for row in rows {
                    let id = try row.decode(column: "id", as: UUID.self)
                    let storeID = try row.decode(column: "store_id", as: UUID.self)
                    let key = FeedSortKey.key(
                        createdAt: try row.decode(column: "created_at", as: Date.self), spread: spread,
                        recentUploads: uploads[storeID] ?? 0, random: .random(in: -1...1))
                    // One statement per batch: UPDATE … SET key = CASE id WHEN … THEN … END.
                    cases += " WHEN \(bind: id) THEN \(bind: key)"
                    ids.append(id)
                }
                try await sql.raw("""
                    UPDATE \(ident: Product.schema) SET feed_sort_key = CASE id\(cases) END WHERE id IN (\(binds: ids))
                    """).run()
                count += ids.count
                after = ids.last
                if rows.count < batchSize { break }
            }
            let record = FeedRedraw()
            record.id = .v7(at: now)
            record.redrawnAt = now
            record.productCount = count
            try await record.create(on: tx)
            return count
        }
    }

    /// Each store's products created since `since`: the uploads its heavy-uploader penalty weighs
    /// (as `FeedSortKey.draw` counts one store's).
    private static func recentUploads(since: Date, on sql: any SQLDatabase) async throws -> [UUID: Int] {
        let rows = try await sql.raw("""
            SELECT store_id, COUNT(*) AS uploads FROM \(ident: Product.schema) WHERE created_at >= \(bind: since) GROUP BY store_id
            """).all()
        var uploads: [UUID: Int] = [:]
        for row in rows { uploads[try row.decode(column: "store_id", as: UUID.self)] = try row.decode(column: "uploads", as: Int.self) }
        return uploads
    }
}
