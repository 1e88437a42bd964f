import Foundation

extension Geo {
    /// The place a "near me" list is about: the one asked for, else the person's home. A 422
    /// naming the field for a bad or half-given place, and naming `lat` when there is none.
    static func place(lat: Double?, lng: Double?, orHomeOf user: User?) throws -> (lat: Double, lng: Double) {
        var errors = FieldErrors()
        check(lat: lat, lng: lng, into: &errors)
        try errors.throwIfAny()
        guard let lat = lat ?? user?.homeLat, let lng = lng ?? user?.homeLng else {
            throw Problem.invalid("lat", "and lng are needed: give a place, or set a home location in your settings")
        }
        return (lat, lng)
    }
}
