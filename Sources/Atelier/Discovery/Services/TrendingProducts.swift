import Fluent
import Foundation
import SQLKit

/// What is trending near a person (issue 51): the visible products of stores within the radius
/// with the most likes and board saves in the last seven days, most first. Counted from the rows,
/// so it is exact; a product nobody touched this week is not trending.
struct TrendingProducts {
    static let window: TimeInterval = 7 * 24 * 3600
    static let maxLimit = 50

    let db: any Database
    let now: Date

    func near(lat: Double, lng: Double, radiusKm: Double, limit: Int) async throws -> [(id: UUID, score: Int)] {
        let since = now.addingTimeInterval(-Self.window)
        // A box around the circle for the index; the exact distance is checked below.
        let latSpan = radiusKm / 111.2
        let lngSpan = radiusKm / max(1, 111.2 * cos(lat * .pi / 180))
        let sql = db.sql
        let rows = try await sql.raw("""
            SELECT p.id AS id, s.lat AS lat, s.lng AS lng, COUNT(*) AS score
            FROM (SELECT product_id FROM \(ident: ProductLike.schema) WHERE created_at >= \(bind: since)
                  UNION ALL
                  SELECT product_id FROM \(ident: BoardItem.schema) WHERE created_at >= \(bind: since)) t
            JOIN \(ident: Product.schema) p ON p.id = t.product_id
            JOIN \(ident: Store.schema) s ON s.id = p.store_id
            WHERE p.status = \(bind: Product.Status.active.rawValue) AND s.status = \(bind: Store.Status.active.rawValue)
              AND s.members_only = \(bind: false)
              AND s.lat BETWEEN \(bind: lat - latSpan) AND \(bind: lat + latSpan)
              AND s.lng BETWEEN \(bind: lng - lngSpan) AND \(bind: lng + lngSpan)
            GROUP BY p.id, s.lat, s.lng
            ORDER BY score DESC, p.id DESC
            LIMIT \(bind: limit * 4)
            """).all()
        var result: [(id: UUID, score: Int)] = []
        for row in rows {
            let storeLat = try row.decode(column: "lat", as: Double.self)
            let storeLng = try row.decode(column: "lng", as: Double.self)
            guard Geo.distanceKm(lat1: lat, lng1: lng, lat2: storeLat, lng2: storeLng) <= radiusKm else { continue }
            result.append((try row.decode(column: "id", as: UUID.self), try row.decode(column: "score", as: Int.self)))
            if result.count == limit { break }
        }
        return result
    }
}
