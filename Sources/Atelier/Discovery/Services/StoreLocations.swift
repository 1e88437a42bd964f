import Fluent
import Foundation
import SQLKit

/// Which active stores lie within a place. Stores are few (hundreds), so distances are computed
/// here, exactly, and the product queries get the store ids. Read as plain rows: this runs on
/// every feed and search request, and decoding hundreds of full models cost more than the query.
struct StoreLocations {
    let db: any Database

    private struct Location: Decodable {
        var id: UUID
        var lat: Double
        var lng: Double
        var city: String
    }

    func activeStoreIDs(within km: Double, ofLat lat: Double, lng: Double) async throws -> [UUID] {
        try await activeStores().filter { Geo.distanceKm(lat1: lat, lng1: lng, lat2: $0.lat, lng2: $0.lng) <= km }.map(\.id)
    }

    func activeStoreIDs(inCity city: String) async throws -> [UUID] {
        try await activeStores().filter { $0.city.caseInsensitiveCompare(city) == .orderedSame }.map(\.id)
    }

    private func activeStores() async throws -> [Location] {
        try await (db as! any SQLDatabase).raw("""
            SELECT id, lat, lng, city FROM \(ident: Store.schema) WHERE status = \(bind: Store.Status.active.rawValue)
            AND members_only = \(bind: false)
            """).all(decoding: Location.self)
    }
}
