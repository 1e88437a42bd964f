import Fluent
import Foundation

/// A real event: one place, one time window and one shared album.
final class Moment: Model, @unchecked Sendable {
    static let schema = "moments"

    enum Visibility: String, Codable, Sendable, CaseIterable { case `public`, `private` }
    enum Category: String, Codable, Sendable, CaseIterable { case party, wedding, birthday, concert, show, market, trip, other }
    /// Derived from the clock, never stored.
    enum Status: String, Codable, Sendable { case upcoming, ongoing, ended }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "creator_id") var creatorID: UUID
    @Field(key: "name") var name: String
    @Field(key: "description") var description: String
    @Field(key: "starts_at") var startsAt: Date
    @Field(key: "ends_at") var endsAt: Date
    @Field(key: "place_id") var placeID: UUID
    @Field(key: "visibility") var visibility: String
    @Field(key: "category") var category: String
    /// Set by the creator; until then the first photo is the cover.
    @OptionalField(key: "cover_photo_id") var coverPhotoID: UUID?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    func status(at now: Date) -> Status {
        if now < startsAt { return .upcoming }
        return now < endsAt ? .ongoing : .ended
    }

    var isPublic: Bool { visibility == Visibility.public.rawValue }
}

/// A named point with a radius: where a moment happens, reusable for later moments.
final class Place: Model, @unchecked Sendable {
    static let schema = "places"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "lat") var lat: Double
    @Field(key: "lng") var lng: Double
    @Field(key: "radius_m") var radiusMeters: Int
    @OptionalField(key: "external_id") var externalID: String?
    @OptionalField(key: "created_by") var createdBy: UUID?
    /// Saved for everyone (`POST /places`). A place made with a moment (a quick moment's spot is
    /// where its creator stands) is found by its creator and, once a public moment uses it, by all.
    @Field(key: "shared") var shared: Bool
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// Someone's relation to a moment: invited by the creator (or joined a public moment on their
/// own), then joined, checked in on site, or ignored. The creator has a row too.
final class MomentMember: Model, @unchecked Sendable {
    static let schema = "moment_members"

    enum State: String, Codable, Sendable { case invited, joined, checkedIn, ignored }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "moment_id") var momentID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "state") var state: String
    @OptionalField(key: "invited_by") var invitedBy: UUID?
    @OptionalField(key: "invited_at") var invitedAt: Date?
    @OptionalField(key: "joined_at") var joinedAt: Date?
    @OptionalField(key: "checked_in_at") var checkedInAt: Date?
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var memberState: State { State(rawValue: state) ?? .invited }
}

/// A photo in a moment's album.
final class MomentPhoto: Model, @unchecked Sendable {
    static let schema = "moment_photos"
    /// `Media.ownerType` of an album photo.
    static let mediaOwnerType = "moment_photo"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "moment_id") var momentID: UUID
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "media_id") var mediaID: UUID
    @Field(key: "caption") var caption: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A fave on a moment or on one of its photos (`targetID` is the one or the other); one per person.
final class MomentFave: Model, @unchecked Sendable {
    static let schema = "moment_faves"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "moment_id") var momentID: UUID
    @Field(key: "target_id") var targetID: UUID
    @Field(key: "user_id") var userID: UUID
    @Field(key: "created_at") var createdAt: Date

    init() {}
}

/// A comment on a moment, or on one of its photos when `photoID` is set.
final class MomentComment: Model, @unchecked Sendable {
    static let schema = "moment_comments"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "moment_id") var momentID: UUID
    @OptionalField(key: "photo_id") var photoID: UUID?
    @Field(key: "author_id") var authorID: UUID
    @Field(key: "body") var body: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
