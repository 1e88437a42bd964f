import Fluent
import Foundation

/// What a feed shows (discovery.md): the user's saved preferences, each of which a request may
/// override (to shop for someone else). The discover feed may also hold to the person's shopping
/// preferences (wardrobe.md).
struct FeedFilters: Sendable, Equatable {
    enum Place: Sendable, Equatable {
        case radius(lat: Double, lng: Double, km: Int)
        case city(String)
    }

    enum UploadedWithin: String, Sendable, CaseIterable { case today, week, month, any }

    /// `women` or `men` (unisex products are in both); nil for all.
    var gender: String?
    var place: Place?
    var uploadedWithin: UploadedWithin = .any
    /// Brands, colours, styles, sizes and price range from the size profile (discover feed only).
    var shopping: ShoppingPreferences?

    /// A request's overrides, as given in the query string.
    struct Overrides: Sendable {
        var gender: String?
        var radiusKm: Int?
        var lat: Double?
        var lng: Double?
        var city: String?
        var uploadedWithin: String?
        /// Hold the discover feed to the shopping preferences; nil: as the profile says.
        var preferences: Bool?
    }

    /// The user's saved filters with the request's overrides applied, and for the discover feed the
    /// shopping preferences when they apply; bad overrides are a 422 naming each one.
    static func resolve(
        _ kind: FeedService.Kind, for user: User, overriding o: Overrides, preferences: ShoppingPreferenceSource, db: any Database
    ) async throws -> FeedFilters {
        var filters = try resolve(for: user, overriding: o)
        if kind == .discover {
            filters.shopping = try await preferences.applying(for: user.requireID(), requested: o.preferences, db: db)
        }
        return filters
    }

    private static func resolve(for user: User, overriding o: Overrides) throws -> FeedFilters {
        var errors = FieldErrors()
        var filters = FeedFilters()
        let gender = o.gender ?? user.genderPreference
        switch gender {
        case "women", "men": filters.gender = gender
        case "all": filters.gender = nil
        default: errors.add("gender", "must be women, men or all")
        }
        if let radius = o.radiusKm, !AccountRules.radiusChoices.contains(radius) {
            errors.add("radiusKm", "must be 1, 5, 10 or 50")
        }
        Geo.check(lat: o.lat, lng: o.lng, into: &errors)
        if let raw = o.uploadedWithin {
            if let within = UploadedWithin(rawValue: raw) { filters.uploadedWithin = within } else {
                errors.add("uploadedWithin", "must be today, week, month or any")
            }
        }
        try errors.throwIfAny()

        let radius = o.radiusKm ?? user.radiusKm
        if let city = o.city?.trimmingCharacters(in: .whitespaces), !city.isEmpty {
            filters.place = .city(city)
        } else if let lat = o.lat, let lng = o.lng {
            filters.place = .radius(lat: lat, lng: lng, km: radius)
        } else if let lat = user.homeLat, let lng = user.homeLng {
            filters.place = .radius(lat: lat, lng: lng, km: radius)
        } else if let city = user.homeCity, !city.isEmpty {
            filters.place = .city(city)
        }
        return filters
    }

    /// The earliest creation time `uploadedWithin` lets in; "today" starts at the user's local midnight.
    func uploadedSince(now: Date, timeZone: TimeZone) -> Date? {
        switch uploadedWithin {
        case .any: return nil
        case .today:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.startOfDay(for: now)
        case .week: return now.addingTimeInterval(-7 * 86_400)
        case .month: return now.addingTimeInterval(-30 * 86_400)
        }
    }

    /// Genders of products that fit: the chosen one and unisex.
    var productGenders: [String]? {
        gender.map { [$0, "unisex"] }
    }
}
