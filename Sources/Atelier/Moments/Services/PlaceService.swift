import Fluent
import Foundation

/// Saved places: found near a point, created by people for their moments.
struct PlaceService {
    struct Nearby: Sendable {
        var place: Place
        var distanceMeters: Double
    }

    let db: any Database
    let core: CoreServices

    /// A place `viewerID` may use: shared, their own, or one a public moment is at.
    func place(_ id: UUID, for viewerID: UUID) async throws -> Place {
        guard let place = try await Place.find(id, on: db), try await usable([place], by: viewerID).contains(id)
        else { throw Problem.invalid("placeId", "is not a saved place") }
        return place
    }

    /// Of `places`, the ids `viewerID` may find: shared ones, their own, and those of public moments.
    func usable(_ places: [Place], by viewerID: UUID) async throws -> Set<UUID> {
        var ids = Set(places.filter { $0.shared || $0.createdBy == viewerID }.map { $0.id! })
        let others = places.map { $0.id! }.filter { !ids.contains($0) }
        if !others.isEmpty {
            ids.formUnion(try await Moment.query(on: db).filter(\.$placeID ~~ others)
                .filter(\.$visibility == Moment.Visibility.public.rawValue).all(\.$placeID))
        }
        return ids
    }

    /// A new, unsaved place from a draft, with its problems added to `errors`.
    func validated(_ draft: MomentService.PlaceDraft, prefix: String = "", errors: inout FieldErrors) throws -> Place {
        let name = MomentRules.place(
            name: draft.name, lat: draft.lat, lng: draft.lng, radius: draft.radiusMeters, externalID: draft.externalID,
            into: &errors, prefix: prefix)
        let now = core.clock.now()
        let place = Place()
        place.id = .v7(at: now)
        place.name = name
        place.lat = draft.lat
        place.lng = draft.lng
        place.radiusMeters = draft.radiusMeters
        place.externalID = draft.externalID
        place.shared = false
        place.createdAt = now
        return place
    }

    func create(_ draft: MomentService.PlaceDraft, by userID: UUID) async throws -> Place {
        var errors = FieldErrors()
        let place = try validated(draft, errors: &errors)
        try errors.throwIfAny()
        place.createdBy = userID
        place.shared = true
        try await place.create(on: db)
        return place
    }

    /// Places `viewerID` may find whose centre lies within `radius` metres of the point, nearest
    /// first (at most 50).
    func nearby(lat: Double, lng: Double, radius: Int, viewer viewerID: UUID) async throws -> [Nearby] {
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        if !(1...50_000).contains(radius) { errors.add("radius", "must be between 1 and 50000 metres") }
        try errors.throwIfAny()
        // A latitude band narrows the rows by index; the exact distance decides.
        let band = Double(radius) / 111_000
        let rows = try await Place.query(on: db).filter(\.$lat >= lat - band).filter(\.$lat <= lat + band).limit(2000).all()
        let usable = try await self.usable(rows, by: viewerID)
        return rows.filter { usable.contains($0.id!) }
            .map { Nearby(place: $0, distanceMeters: MomentRules.distanceMeters(lat1: lat, lng1: lng, lat2: $0.lat, lng2: $0.lng)) }
            .filter { $0.distanceMeters <= Double(radius) }
            .sorted { $0.distanceMeters < $1.distanceMeters }
            .prefix(50).map { $0 }
    }
}
