import Foundation

/// Great-circle distance on a spherical Earth, good to well under 0.5 % at city scale.
enum Geo {
    static let earthRadiusKm = 6371.0088

    static func distanceKm(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad
        let dLng = (lng2 - lng1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * earthRadiusKm * asin(min(1, sqrt(a)))
    }

    /// Reports a latitude outside -90...90 or a longitude outside -180...180, and one given
    /// without the other (both may be absent).
    static func check(lat: Double?, lng: Double?, into errors: inout FieldErrors) {
        if (lat == nil) != (lng == nil) { errors.add(lat == nil ? "lat" : "lng", "must be given together with \(lat == nil ? "lng" : "lat")") }
        if let lat, !(lat.isFinite && (-90...90).contains(lat)) { errors.add("lat", "must be between -90 and 90") }
        if let lng, !(lng.isFinite && (-180...180).contains(lng)) { errors.add("lng", "must be between -180 and 180") }
    }
}
