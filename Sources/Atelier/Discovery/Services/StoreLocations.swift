import Fluent
import Foundation

/// Which active stores lie within a place. Stores are few (hundreds), so distances are computed
/// here, exactly, and the product queries get the store ids.
struct StoreLocations {
    let db: any Database

    func activeStoreIDs(within km: Double, ofLat lat: Double, lng: Double) async throws -> [UUID] {
        try await activeStores().filter { Geo.distanceKm(lat1: lat, lng1: lng, lat2: $0.lat, lng2: $0.lng) <= km }.compactMap(\.id)
    }

    func activeStoreIDs(inCity city: String) async throws -> [UUID] {
        try await activeStores().filter { $0.city.caseInsensitiveCompare(city) == .orderedSame }.compactMap(\.id)
    }

    private func activeStores() async throws -> [Store] {
        try await Store.query(on: db).filter(\.$status == Store.Status.active.rawValue)
            .field(\.$id).field(\.$lat).field(\.$lng).field(\.$city).all()
    }
}
