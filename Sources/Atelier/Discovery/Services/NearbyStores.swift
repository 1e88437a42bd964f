import Fluent
import Foundation

/// Active stores by distance from a point, each with whether it is open now (discovery.md).
struct NearbyStores {
    struct Entry: Sendable {
        var store: Store
        var distanceMeters: Int
        var openNow: Bool
    }

    static let radiusRange = 1...50

    let db: any Database
    let core: CoreServices
    /// The stores the caller may see.
    var visibility: StoreVisibility = .publicOnly

    func around(lat: Double, lng: Double, radiusKm: Int, openOnly: Bool, limit: Int) async throws -> [Entry] {
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        if !Self.radiusRange.contains(radiusKm) { errors.add("radiusKm", "must be between 1 and 50") }
        if !(1...PageRequest.maxLimit).contains(limit) { errors.add("limit", "must be between 1 and \(PageRequest.maxLimit)") }
        try errors.throwIfAny()
        let now = core.clock.now()
        let stores = try await Store.query(on: db).filter(\.$status == Store.Status.active.rawValue).all()
            .filter { visibility.admits(storeID: $0.id!, isActive: true, membersOnly: $0.membersOnly) }
        return stores
            .map { store in
                let km = Geo.distanceKm(lat1: lat, lng1: lng, lat2: store.lat, lng2: store.lng)
                return (store, km, OpeningTimes.isOpen(store.openingHours, timeZone: store.timeZone, at: now))
            }
            .filter { $0.1 <= Double(radiusKm) && (!openOnly || $0.2) }
            .sorted { $0.1 < $1.1 }
            .prefix(limit)
            .map { Entry(store: $0.0, distanceMeters: Int(($0.1 * 1000).rounded()), openNow: $0.2) }
    }
}
