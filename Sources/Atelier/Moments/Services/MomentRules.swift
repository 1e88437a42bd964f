import Foundation

/// Validation of what people type into a moment: names, descriptions, time windows, places.
enum MomentRules {
    static let maxName = 120
    static let maxDescription = 2000
    static let maxDuration: TimeInterval = 30 * 24 * 3600
    static let radiusRange = 10...50_000
    /// A reported accuracy worse than this is not trusted for a check-in.
    static let worstUsableAccuracy = 500.0

    static func name(_ raw: String, into errors: inout FieldErrors) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors.add("name", "is empty; give the moment a name") }
        if name.count > maxName { errors.add("name", "may be at most \(maxName) characters (this one has \(name.count))") }
        if name.contains("\0") { errors.add("name", "contains a NUL character") }
        return name
    }

    static func description(_ raw: String, into errors: inout FieldErrors) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.count > maxDescription { errors.add("description", "may be at most \(maxDescription) characters (this one has \(text.count))") }
        if text.contains("\0") { errors.add("description", "contains a NUL character") }
        return text
    }

    static func window(startsAt: Date, endsAt: Date, into errors: inout FieldErrors) {
        if endsAt <= startsAt {
            errors.add("endsAt", "must be after startsAt")
        } else if endsAt.timeIntervalSince(startsAt) > maxDuration {
            errors.add("endsAt", "may be at most 30 days after startsAt")
        }
    }

    static func place(name raw: String, lat: Double, lng: Double, radius: Int, externalID: String?, into errors: inout FieldErrors, prefix: String = "") -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > maxName { errors.add(prefix + "name", "must be 1 to \(maxName) characters") }
        if name.contains("\0") { errors.add(prefix + "name", "contains a NUL character") }
        Geo.check(lat: lat, lng: lng, into: &errors)
        if !radiusRange.contains(radius) { errors.add(prefix + "radiusMeters", "must be between 10 and 50000 metres") }
        if let externalID, externalID.count > 200 || externalID.contains("\0") { errors.add(prefix + "externalId", "may be at most 200 characters") }
        return name
    }

    static func distanceMeters(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        Geo.distanceKm(lat1: lat1, lng1: lng1, lat2: lat2, lng2: lng2) * 1000
    }

    static func meters(_ value: Double) -> String {
        value < 1000 ? "\(Int(value.rounded())) m" : String(format: "%.1f km", value / 1000)
    }
}
