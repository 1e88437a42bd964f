import Fluent
import Foundation

public final class User: Model, @unchecked Sendable {
    public static let schema = "users"

    @ID(custom: "id", generatedBy: .user) public var id: UUID?
    /// Normalised (trimmed, lower-cased); nil for an account made by a social sign-in without email.
    @OptionalField(key: "email") public var email: String?
    @OptionalField(key: "email_verified_at") public var emailVerifiedAt: Date?
    @OptionalField(key: "pending_email") public var pendingEmail: String?
    @OptionalField(key: "password_hash") public var passwordHash: String?
    @Field(key: "display_name") public var displayName: String
    @Field(key: "username") public var username: String
    @OptionalField(key: "about") public var about: String?
    @OptionalField(key: "birth_date") public var birthDate: String?
    @Field(key: "gender_preference") public var genderPreference: String
    @OptionalField(key: "home_lat") public var homeLat: Double?
    @OptionalField(key: "home_lng") public var homeLng: Double?
    @OptionalField(key: "home_city") public var homeCity: String?
    @Field(key: "radius_km") public var radiusKm: Int
    @Field(key: "locale") public var locale: String
    @Field(key: "time_zone") public var timeZone: String
    @Field(key: "is_editor") public var isEditor: Bool
    @Field(key: "is_admin") public var isAdmin: Bool
    @OptionalField(key: "suspended_at") public var suspendedAt: Date?
    /// Web sessions signed in before this moment are no longer valid (password reset or change).
    @OptionalField(key: "sessions_valid_after") public var sessionsValidAfter: Date?
    /// A public copy of a photo the user chose (from a moment); nil until they pick one.
    @OptionalField(key: "avatar_media_id") public var avatarMediaID: UUID?
    @Field(key: "created_at") public var createdAt: Date
    /// When they last wrote something (with a read replica, their reads go to the primary for a few seconds).
    @OptionalField(key: "last_write_at") public var lastWriteAt: Date?
    @Field(key: "updated_at") public var updatedAt: Date

    public init() {}

    /// Every property, listed here instead of found by reflection: Fluent lists a model's
    /// properties on every decode and save, and the caller of every signed-in request is decoded
    /// as a `User` (reflection was most of the 5 % that decode took in W5v, issue 19).
    /// `ModelPropertiesTests` checks this list against reflection, so a new field cannot be left out.
    public var properties: [any AnyProperty] {
        [
            $id, $email, $emailVerifiedAt, $pendingEmail, $passwordHash, $displayName, $username, $about, $birthDate,
            $genderPreference, $homeLat, $homeLng, $homeCity, $radiusKm, $locale, $timeZone, $isEditor, $isAdmin,
            $suspendedAt, $sessionsValidAfter, $avatarMediaID, $createdAt, $lastWriteAt, $updatedAt,
        ]
    }

    init(id: UUID, email: String?, passwordHash: String?, displayName: String, username: String, now: Date) {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.username = username
        self.genderPreference = "all"
        self.radiusKm = 10
        self.locale = "en"
        self.timeZone = "UTC"
        self.isEditor = false
        self.isAdmin = false
        self.createdAt = now
        self.updatedAt = now
    }

    public var roles: [String] {
        ["user"] + (isEditor ? ["editor"] : []) + (isAdmin ? ["admin"] : [])
    }
}
