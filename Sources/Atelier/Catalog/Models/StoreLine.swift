import Foundation

/// A store as a product view shows it, read without a model (`ProductViewReader`, issue 19): filling
/// and freeing a Fluent `Store`'s 22 fields was a twentieth of a product page's CPU.
struct StoreLine: StoreColumns {
    var id: UUID
    var name: String
    var slug: String
    var about: String
    var phone: String
    var email: String
    var website: String
    var street: String
    var postalCode: String
    var city: String
    var lat: Double
    var lng: Double
    var openingHoursJSON: String
    var logoMediaID: UUID?
    var coverMediaID: UUID?
    var timeZone: String
    var status: String
    var membersOnly: Bool
    var followerCount: Int
    var activeProductCount: Int
    var createdAt: Date
    var updatedAt: Date

    func requireID() -> UUID { id }

    /// The columns `init` reads from stores `s`, each as `s_` and its name (the id is the product's `store_id`).
    static let columns = [
        "name", "slug", "about", "phone", "email", "website", "street", "postal_code", "city", "lat", "lng", "opening_hours",
        "logo_media_id", "cover_media_id", "time_zone", "status", "members_only", "follower_count", "active_product_count",
        "created_at", "updated_at",
    ].map { "s.\($0) AS s_\($0)" }.joined(separator: ", ")

    init(_ row: FastColumns, id: UUID) throws {
        self.id = id
        name = try row.value("s_name", as: String.self)
        slug = try row.value("s_slug", as: String.self)
        about = try row.value("s_about", as: String.self)
        phone = try row.value("s_phone", as: String.self)
        email = try row.value("s_email", as: String.self)
        website = try row.value("s_website", as: String.self)
        street = try row.value("s_street", as: String.self)
        postalCode = try row.value("s_postal_code", as: String.self)
        city = try row.value("s_city", as: String.self)
        lat = try row.value("s_lat", as: Double.self)
        lng = try row.value("s_lng", as: Double.self)
        openingHoursJSON = try row.value("s_opening_hours", as: String.self)
        logoMediaID = try row.optionalUUID("s_logo_media_id")
        coverMediaID = try row.optionalUUID("s_cover_media_id")
        timeZone = try row.value("s_time_zone", as: String.self)
        status = try row.value("s_status", as: String.self)
        membersOnly = try row.value("s_members_only", as: Bool.self)
        followerCount = try row.value("s_follower_count", as: Int.self)
        activeProductCount = try row.value("s_active_product_count", as: Int.self)
        createdAt = try row.value("s_created_at", as: Date.self)
        updatedAt = try row.value("s_updated_at", as: Date.self)
    }
}
