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
    let services: AtelierServices

    func latest() async throws -> Date? {
        try await FeedRedraw.query(on: db).sort(\.$redrawnAt, .descending).first()?.redrawnAt
    }

    /// Re-draws when it is the job's hour and the last re-draw is more than 20 hours old.
    @discardableResult
    func runIfDue() async throws -> Int? {
        let now = services.clock.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard calendar.component(.hour, from: now) == Self.hourUTC else { return nil }
        if let last = try await latest(), now.timeIntervalSince(last) < 20 * 3600 { return nil }
        return try await redraw()
    }

    /// Re-draws the keys of every product created in the last 30 days; returns how many.
    @discardableResult
    func redraw() async throws -> Int {
        let now = services.clock.now()
        let since = now.addingTimeInterval(-Self.window)
        let spread = Double(services.config.feedSpreadHours) * 3600
        let products = try await Product.query(on: db).filter(\.$createdAt >= since)
            .field(\.$id).field(\.$store.$id).field(\.$createdAt).all()
        let uploads = Dictionary(grouping: products, by: { $0.$store.id }).mapValues(\.count)
        let keys = products.map { product in
            (id: product.id!, key: FeedSortKey.key(
                createdAt: product.createdAt, spread: spread, recentUploads: uploads[product.$store.id] ?? 0, random: .random(in: -1...1)))
        }
        try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            for batch in stride(from: 0, to: keys.count, by: 500).map({ keys[$0..<min($0 + 500, keys.count)] }) {
                // One statement per batch: UPDATE … SET key = CASE id WHEN … THEN … END.
                var cases: SQLQueryString = ""
                for entry in batch { cases += " WHEN \(bind: entry.id) THEN \(bind: entry.key)" }
                try await sql.raw("""
                    UPDATE \(ident: Product.schema) SET feed_sort_key = CASE id\(cases) END WHERE id IN (\(binds: batch.map(\.id)))
                    """).run()
            }
            let record = FeedRedraw()
            record.id = .v7(at: now)
            record.redrawnAt = now
            record.productCount = keys.count
            try await record.create(on: tx)
        }
        return keys.count
    }
}
