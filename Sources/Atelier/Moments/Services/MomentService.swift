import Fluent
import Foundation

/// Creating, reading, changing and deleting moments, and who may see one: public moments every
/// signed-in person, private ones their creator and invitees; never anyone blocked either way
/// with the creator. Those who may not see a moment get a 404, as for one that does not exist.
struct MomentService {
    struct PlaceDraft: Sendable {
        var name: String
        var lat: Double
        var lng: Double
        var radiusMeters: Int
        var externalID: String?
    }

    struct Draft: Sendable {
        var name: String?
        var description: String?
        var startsAt: Date?
        var endsAt: Date?
        var placeID: UUID?
        var place: PlaceDraft?
        var visibility: Moment.Visibility?
        var category: Moment.Category?
    }

    static let quickDuration: TimeInterval = 2 * 3600
    static let quickRadius = 100

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// The moment and the viewer's membership, if the viewer may see it.
    func visible(_ id: UUID, to viewerID: UUID) async throws -> (Moment, MomentMember?) {
        guard let moment = try await Moment.find(id, on: db) else { throw Problem.notFound("moment") }
        let member = try await MomentMember.query(on: db).filter(\.$momentID == id).filter(\.$userID == viewerID).first()
        guard try await mayView(moment, member: member, viewerID: viewerID) else { throw Problem.notFound("moment") }
        return (moment, member)
    }

    func mayView(_ moment: Moment, member: MomentMember?, viewerID: UUID) async throws -> Bool {
        if moment.creatorID == viewerID { return true }
        guard moment.isPublic || member != nil else { return false }
        return try await !SocialGraph(db: db).blockedEitherWay(viewerID, moment.creatorID)
    }

    /// The moment if the caller created it; a visible moment of someone else is a 403.
    func own(_ id: UUID, by userID: UUID) async throws -> Moment {
        let (moment, _) = try await visible(id, to: userID)
        guard moment.creatorID == userID else {
            throw Problem(.forbidden, detail: "Only the moment's creator may do this.")
        }
        return moment
    }

    /// `onSite`: the creator is at the place now (a quick moment) and is checked in at once.
    func create(by creator: User, _ draft: Draft, onSite: Bool = false) async throws -> Moment {
        var errors = FieldErrors()
        let name = MomentRules.name(draft.name ?? "", into: &errors)
        let description = MomentRules.description(draft.description ?? "", into: &errors)
        guard let startsAt = draft.startsAt, let endsAt = draft.endsAt else {
            throw Problem.invalid(draft.startsAt == nil ? "startsAt" : "endsAt", "is required")
        }
        MomentRules.window(startsAt: startsAt, endsAt: endsAt, into: &errors)
        if draft.placeID == nil && draft.place == nil { errors.add("place", "is required: give placeId or a new place") }
        let newPlace = try draft.place.map { try PlaceService(db: db, core: core).validated($0, prefix: "place.", errors: &errors) }
        try errors.throwIfAny()

        let creatorID = try creator.requireID()
        let now = self.now
        let moment = Moment()
        moment.id = .v7(at: now)
        moment.creatorID = creatorID
        moment.name = name
        moment.description = description
        moment.startsAt = startsAt
        moment.endsAt = endsAt
        moment.visibility = (draft.visibility ?? .private).rawValue
        moment.category = (draft.category ?? .other).rawValue
        moment.createdAt = now
        moment.updatedAt = now
        let existingPlace = try await draft.placeID.asyncMap { try await PlaceService(db: db, core: core).place($0, for: creatorID) }
        try await core.writeTransaction(on: db) { tx in
            if let newPlace {
                newPlace.createdBy = creatorID
                try await newPlace.create(on: tx)
            }
            moment.placeID = try (newPlace ?? existingPlace!).requireID()
            try await moment.create(on: tx)
            let member = MomentMember()
            member.id = .v7(at: now)
            member.momentID = moment.id!
            member.userID = creatorID
            member.state = (onSite ? MomentMember.State.checkedIn : .joined).rawValue
            member.joinedAt = now
            member.checkedInAt = onSite ? now : nil
            member.updatedAt = now
            try await member.create(on: tx)
        }
        return moment
    }

    /// Where a quick moment is: around the person (the default), at a place nearby they picked,
    /// or at a spot they named with its own radius.
    enum QuickPlace: Sendable {
        case here
        case saved(UUID)
        case named(String, radiusMeters: Int)
    }

    /// "I'm here": a private two-hour moment starting now, with its creator checked in. The place
    /// is a 100 m spot around the position unless the person picked a nearby place (which must
    /// take in where they stand) or named the spot and its radius.
    func createQuick(by creator: User, lat: Double, lng: Double, at where: QuickPlace = .here) async throws -> Moment {
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        try errors.throwIfAny()
        let firstName = creator.displayName.split(separator: " ").first.map(String.init) ?? creator.displayName
        let now = self.now
        var draft = Draft(
            name: "\(firstName)’s moment", description: "", startsAt: now, endsAt: now.addingTimeInterval(Self.quickDuration),
            place: PlaceDraft(name: "\(firstName)’s spot", lat: lat, lng: lng, radiusMeters: Self.quickRadius),
            visibility: .private, category: .other)
        switch `where` {
        case .here:
            break
        case .saved(let placeID):
            let place = try await PlaceService(db: db, core: core).place(placeID, for: creator.requireID())
            let away = MomentRules.distanceMeters(lat1: lat, lng1: lng, lat2: place.lat, lng2: place.lng)
            guard away <= Double(place.radiusMeters) else {
                throw Problem.invalid("placeId", "is \(Int(away.rounded())) m from where you are, outside its \(place.radiusMeters) m")
            }
            draft.name = String("\(firstName) at \(place.name)".prefix(MomentRules.maxName))
            draft.place = nil
            draft.placeID = placeID
        case .named(let rawName, let radius):
            let name = rawName.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty || name.count > MomentRules.maxName { errors.add("placeName", "must be 1 to \(MomentRules.maxName) characters") }
            if !MomentRules.radiusRange.contains(radius) {
                errors.add("radiusMeters", "must be \(MomentRules.radiusRange.lowerBound) to \(MomentRules.radiusRange.upperBound) m")
            }
            try errors.throwIfAny()
            draft.place = PlaceDraft(name: name, lat: lat, lng: lng, radiusMeters: radius)
            draft.name = String("\(firstName) at \(name)".prefix(MomentRules.maxName))
        }
        return try await create(by: creator, draft, onSite: true)
    }

    func update(_ moment: Moment, with draft: Draft) async throws -> Moment {
        var errors = FieldErrors()
        if let name = draft.name { moment.name = MomentRules.name(name, into: &errors) }
        if let description = draft.description { moment.description = MomentRules.description(description, into: &errors) }
        if let startsAt = draft.startsAt { moment.startsAt = startsAt }
        if let endsAt = draft.endsAt { moment.endsAt = endsAt }
        if draft.startsAt != nil || draft.endsAt != nil {
            MomentRules.window(startsAt: moment.startsAt, endsAt: moment.endsAt, into: &errors)
        }
        if let visibility = draft.visibility { moment.visibility = visibility.rawValue }
        if let category = draft.category { moment.category = category.rawValue }
        let places = PlaceService(db: db, core: core)
        let newPlace = try draft.place.map { try places.validated($0, prefix: "place.", errors: &errors) }
        try errors.throwIfAny()
        if let placeID = draft.placeID { moment.placeID = try await places.place(placeID, for: moment.creatorID).requireID() }
        moment.updatedAt = now
        let creatorID = moment.creatorID
        try await core.writeTransaction(on: db) { tx in
            if let newPlace {
                newPlace.createdBy = creatorID
                try await newPlace.create(on: tx)
                moment.placeID = newPlace.id!
            }
            try await moment.update(on: tx)
        }
        return moment
    }

    /// Deletes the moment with its members, photos (and their files), faves and comments.
    func delete(_ moment: Moment) async throws {
        let momentID = try moment.requireID()
        let mediaIDs = try await MomentPhoto.query(on: db).filter(\.$momentID == momentID).all(\.$mediaID)
        try await core.writeTransaction(on: db) { tx in try await moment.delete(on: tx) }
        let media = MediaService(db: db, core: core, mediaLibrary: mediaLibrary)
        for id in mediaIDs {
            if let row = try await Media.find(id, on: db) { try await media.delete(row) }
        }
    }
}
