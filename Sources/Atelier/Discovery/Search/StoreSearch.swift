import Fluent
import Foundation

/// Searching stores instead of items (discovery.md): by name (word prefixes), city and distance.
struct StoreSearch {
    struct Hit: Sendable {
        var store: Store
        var distanceMeters: Int?
        var openNow: Bool
    }

    struct Request: Sendable {
        var text: String?
        var city: String?
        var lat: Double?
        var lng: Double?
        var radiusKm: Double?
        var limit: Int?
    }

    let db: any Database
    let core: CoreServices
    /// The stores the caller may see.
    var visibility: StoreVisibility = .publicOnly

    func search(_ request: Request) async throws -> [Hit] {
        var errors = FieldErrors()
        if let text = request.text, text.count > 100 { errors.add("q", "must be at most 100 characters") }
        Geo.check(lat: request.lat, lng: request.lng, into: &errors)
        if let km = request.radiusKm {
            if request.lat == nil { errors.add("radiusKm", "needs lat and lng") }
            if !(km.isFinite && ProductSearchQuery.radiusRange.contains(km)) { errors.add("radiusKm", "must be between 0.1 and 200") }
        }
        let limit = request.limit ?? PageRequest.defaultLimit
        if !(1...PageRequest.maxLimit).contains(limit) { errors.add("limit", "must be between 1 and \(PageRequest.maxLimit)") }
        try errors.throwIfAny()

        var stores = try await Store.query(on: db).filter(\.$status == Store.Status.active.rawValue).all()
            .filter { visibility.admits(storeID: $0.id!, isActive: true, membersOnly: $0.membersOnly) }
        if let city = request.city?.trimmingCharacters(in: .whitespaces), !city.isEmpty {
            let wanted = TextMatch.fold(city)
            stores = stores.filter { TextMatch.fold($0.city) == wanted }
        }
        let now = core.clock.now()
        var hits = stores.map { store in
            Hit(store: store,
                distanceMeters: request.lat.flatMap { lat in request.lng.map { lng in
                    Int((Geo.distanceKm(lat1: lat, lng1: lng, lat2: store.lat, lng2: store.lng) * 1000).rounded())
                } },
                openNow: OpeningTimes.isOpen(store.openingHours, timeZone: store.timeZone, at: now))
        }
        if let km = request.radiusKm { hits = hits.filter { Double($0.distanceMeters ?? 0) <= km * 1000 } }
        let match = request.text.map(TextMatch.init).flatMap { $0.tokens.isEmpty ? nil : $0 }
        if let match {
            let scored = hits.compactMap { hit in match.score(hit.store.name).map { (hit, $0) } }
            hits = request.lat == nil
                ? scored.sorted { ($0.1, -$0.0.store.followerCount) < ($1.1, -$1.0.store.followerCount) }.map(\.0)
                : scored.map(\.0)
        } else if request.lat == nil {
            hits.sort { ($0.store.followerCount, $1.store.name) > ($1.store.followerCount, $0.store.name) }
        }
        if request.lat != nil { hits.sort { ($0.distanceMeters ?? 0) < ($1.distanceMeters ?? 0) } }
        return Array(hits.prefix(limit))
    }
}
