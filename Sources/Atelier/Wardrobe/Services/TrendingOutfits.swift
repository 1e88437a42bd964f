import Fluent
import Foundation
import SQLKit

/// Trending outfits near a person (issue 51): of the outfits the viewer may see (public ones, and
/// friends-only ones of their friends), those whose owners live within the radius, with the most
/// likes in the last seven days, most first. Counted from the rows, so it is exact; an outfit
/// nobody liked this week is not trending. Private outfits, suspended owners and anyone blocked
/// either way never show.
struct TrendingOutfits {
    static let window: TimeInterval = 7 * 24 * 3600
    static let maxLimit = 50

    let db: any Database
    let now: Date

    func near(lat: Double, lng: Double, radiusKm: Double, viewer viewerID: UUID, limit: Int) async throws -> [UUID] {
        // A box around the circle for the query; the exact distance is checked below.
        let latSpan = radiusKm / 111.2
        let lngSpan = radiusKm / max(1, 111.2 * cos(lat * .pi / 180))
        let rows = try await db.sql.raw("""
            SELECT o.id AS id, o.owner_id AS owner_id, o.visibility AS visibility, u.home_lat AS lat, u.home_lng AS lng, COUNT(*) AS score
            FROM \(ident: OutfitLike.schema) l
            JOIN \(ident: Outfit.schema) o ON o.id = l.outfit_id
            JOIN \(ident: User.schema) u ON u.id = o.owner_id
            WHERE l.created_at >= \(bind: now.addingTimeInterval(-Self.window))
              AND o.visibility <> \(bind: Outfit.Visibility.private.rawValue) AND u.suspended_at IS NULL
              AND u.home_lat BETWEEN \(bind: lat - latSpan) AND \(bind: lat + latSpan)
              AND u.home_lng BETWEEN \(bind: lng - lngSpan) AND \(bind: lng + lngSpan)
            GROUP BY o.id, o.owner_id, o.visibility, u.home_lat, u.home_lng
            ORDER BY score DESC, o.id DESC
            LIMIT \(bind: limit * 4)
            """).all()
        struct Candidate { var id: UUID; var ownerID: UUID; var friendsOnly: Bool }
        var candidates: [Candidate] = []
        for row in rows {
            let ownerLat = try row.decode(column: "lat", as: Double.self)
            let ownerLng = try row.decode(column: "lng", as: Double.self)
            guard Geo.distanceKm(lat1: lat, lng1: lng, lat2: ownerLat, lng2: ownerLng) <= radiusKm else { continue }
            candidates.append(Candidate(
                id: try row.decode(column: "id", as: UUID.self), ownerID: try row.decode(column: "owner_id", as: UUID.self),
                friendsOnly: try row.decode(column: "visibility", as: String.self) == Outfit.Visibility.friends.rawValue))
        }
        let owners = Array(Set(candidates.map(\.ownerID)).subtracting([viewerID]))
        let relationships = try await SocialGraph(db: db).relationships(of: viewerID, to: owners)
        let blockedViewer = owners.isEmpty ? [] : Set(try await UserBlock.query(on: db)
            .filter(\.$blockedID == viewerID).filter(\.$blockerID ~~ owners).all(\.$blockerID))
        let visible = candidates.filter { candidate in
            if candidate.ownerID == viewerID { return true }
            let relationship = relationships[candidate.ownerID] ?? .none
            guard relationship != .blocked, !blockedViewer.contains(candidate.ownerID) else { return false }
            return !candidate.friendsOnly || relationship == .friend
        }
        return Array(visible.prefix(limit).map(\.id))
    }
}
