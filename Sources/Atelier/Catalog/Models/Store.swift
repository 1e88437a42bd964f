import Fluent
import Foundation

/// A physical clothing store. Its counters are kept in step with the truth by the services that
/// change what they count, inside the same transaction.
final class Store: Model, @unchecked Sendable {
    static let schema = "stores"

    enum Status: String, Codable, Sendable { case active, suspended }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "slug") var slug: String
    @Field(key: "about") var about: String
    @Field(key: "phone") var phone: String
    @Field(key: "email") var email: String
    @Field(key: "website") var website: String
    @Field(key: "street") var street: String
    @Field(key: "postal_code") var postalCode: String
    @Field(key: "city") var city: String
    @Field(key: "lat") var lat: Double
    @Field(key: "lng") var lng: Double
    /// JSON list of `OpeningHours`.
    @Field(key: "opening_hours") var openingHoursJSON: String
    @OptionalField(key: "logo_media_id") var logoMediaID: UUID?
    @OptionalField(key: "cover_media_id") var coverMediaID: UUID?
    /// IANA zone the opening hours are in.
    @Field(key: "time_zone") var timeZone: String
    @Field(key: "status") var status: String
    /// Sign-in-to-browse (commerce.md): only its staff and approved trade customers see the store
    /// and its catalogue; it stays out of feeds, search and nearby lists. Mirrors the setting.
    @Field(key: "members_only") var membersOnly: Bool
    @Field(key: "follower_count") var followerCount: Int
    @Field(key: "active_product_count") var activeProductCount: Int
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var openingHours: [OpeningHours] {
        get { OpeningHours.list(openingHoursJSON) }
        set { openingHoursJSON = String(decoding: (try? JSONEncoder().encode(newValue)) ?? Data("[]".utf8), as: UTF8.self) }
    }
}

/// What a store's rules and pages read, from the model or from a plain row (`StoreLine`).
protocol StoreColumns: Sendable {
    var name: String { get }
    var slug: String { get }
    var about: String { get }
    var phone: String { get }
    var email: String { get }
    var website: String { get }
    var street: String { get }
    var postalCode: String { get }
    var city: String { get }
    var lat: Double { get }
    var lng: Double { get }
    var openingHoursJSON: String { get }
    var logoMediaID: UUID? { get }
    var coverMediaID: UUID? { get }
    var status: String { get }
    var membersOnly: Bool { get }
    var followerCount: Int { get }
    var activeProductCount: Int { get }
    func requireID() throws -> UUID
}

extension StoreColumns {
    var isActive: Bool { status == Store.Status.active.rawValue }
    /// Seen by everyone: active and not members-only.
    var isPublic: Bool { isActive && !membersOnly }
    var openingHours: [OpeningHours] { OpeningHours.list(openingHoursJSON) }
}

extension Store: StoreColumns {}

/// Opening and closing time ("HH:MM") on one weekday (1 = Monday … 7 = Sunday).
struct OpeningHours: Codable, Sendable, Equatable {
    var weekday: Int
    var opens: String
    var closes: String

    /// The list stored in `opening_hours`; none when it does not read.
    static func list(_ json: String) -> [OpeningHours] {
        (try? JSONDecoder().decode([OpeningHours].self, from: Data(json.utf8))) ?? []
    }
}

/// An account's role in a store.
final class StoreMember: Model, @unchecked Sendable {
    static let schema = "store_members"

    enum Role: String, Codable, Sendable, CaseIterable { case owner, staff }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "store_id") var store: Store
    @Parent(key: "user_id") var user: User
    @Field(key: "role") var role: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// An invitation by email for someone without an account yet; claimed when an account with
/// that (verified) address opens the portal.
final class StoreInvite: Model, @unchecked Sendable {
    static let schema = "store_invites"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "store_id") var store: Store
    @Field(key: "email") var email: String
    @Field(key: "role") var role: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
