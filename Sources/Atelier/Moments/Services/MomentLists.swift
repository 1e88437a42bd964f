import Fluent
import FluentSQL
import Foundation

/// The lists a person sees: their moments, news, invitations, check-ins, moments in common
/// with someone, where someone was last seen, and search by name.
struct MomentLists {
    struct Invitation: Sendable {
        var member: MomentMember
        var moment: Moment
    }

    struct CheckIn: Sendable {
        var moment: Moment
        var checkedInAt: Date
    }

    static let activeStates = [MomentMember.State.joined.rawValue, MomentMember.State.checkedIn.rawValue]

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// Created by or invited to (not ignored), newest first.
    func mine(_ userID: UUID, page: PageRequest) async throws -> Page<Moment> {
        let rows = try await Moment.query(on: db)
            .join(MomentMember.self, on: \Moment.$id == \MomentMember.$momentID)
            .filter(MomentMember.self, \.$userID == userID)
            .filter(MomentMember.self, \.$state != MomentMember.State.ignored.rawValue)
            .newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Moments the viewer may see whose name contains `text`, newest first.
    func search(_ raw: String, viewer: UUID, page: PageRequest) async throws -> Page<Moment> {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard (1...100).contains(text.count) else { throw Problem.invalid("q", "must be 1 to 100 characters") }
        try PlainText.requireNoNUL(text, field: "q")
        let pattern = "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        let memberOf = try await MomentMember.query(on: db).filter(\.$userID == viewer).all(\.$momentID)
        let blocked = try await SocialGraph(db: db).blockedPeople(of: viewer)
        let query = Moment.query(on: db)
            .filter(.sql(embed: "lower(\(ident: Moment.schema).\(ident: "name")) LIKE \(bind: pattern) ESCAPE '\\'"))
            .group(.or) { group in
                group.filter(\.$visibility == Moment.Visibility.public.rawValue)
                if !memberOf.isEmpty { group.filter(\.$id ~~ memberOf) }
            }
        if !blocked.isEmpty { query.filter(\.$creatorID !~ Array(blocked)) }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// What matters now: ongoing and upcoming moments the viewer is in or friends joined (ongoing
    /// first, then by start), then public ones nearby with the most photos in the last day.
    func news(_ viewer: UUID, lat: Double?, lng: Double?, limit: Int) async throws -> [Moment] {
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        try errors.throwIfAny()
        let now = self.now
        let graph = SocialGraph(db: db)
        let friends = try await graph.friendIDs(of: viewer)
        let blocked = try await graph.blockedPeople(of: viewer)
        let memberOf = Set(try await MomentMember.query(on: db).filter(\.$userID == viewer)
            .filter(\.$state != MomentMember.State.ignored.rawValue).all(\.$momentID))
        let friendsIn = friends.isEmpty ? [] : Set(try await MomentMember.query(on: db).filter(\.$userID ~~ friends)
            .filter(\.$state ~~ Self.activeStates).all(\.$momentID))
        let candidates = memberOf.union(friendsIn)
        var close: [Moment] = []
        if !candidates.isEmpty {
            close = try await Moment.query(on: db).filter(\.$id ~~ candidates).filter(\.$endsAt > now).limit(500).all()
                .filter { ($0.isPublic || memberOf.contains($0.id!)) && ($0.creatorID == viewer || !blocked.contains($0.creatorID)) }
            close.sort { a, b in
                let aOn = a.startsAt <= now, bOn = b.startsAt <= now
                return aOn != bOn ? aOn : a.startsAt < b.startsAt
            }
        }
        guard close.count < limit else { return Array(close.prefix(limit)) }

        let taken = Set(close.map { $0.id! })
        var publicOnes = try await Moment.query(on: db).filter(\.$visibility == Moment.Visibility.public.rawValue)
            .filter(\.$endsAt > now).sort(\.$startsAt, .ascending).limit(500).all()
            .filter { !taken.contains($0.id!) && !blocked.contains($0.creatorID) }
        if let lat, let lng {
            let places = Dictionary(try await Place.query(on: db).filter(\.$id ~~ Set(publicOnes.map(\.placeID))).all()
                .map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
            publicOnes = publicOnes.filter { moment in
                guard let place = places[moment.placeID] else { return false }
                return Geo.distanceKm(lat1: lat, lng1: lng, lat2: place.lat, lng2: place.lng) <= 50
            }
        }
        let since = now.addingTimeInterval(-24 * 3600)
        var recentPhotos: [UUID: Int] = [:]
        if !publicOnes.isEmpty {
            for id in try await MomentPhoto.query(on: db).filter(\.$momentID ~~ publicOnes.map { $0.id! })
                .filter(\.$createdAt >= since).all(\.$momentID) { recentPhotos[id, default: 0] += 1 }
        }
        publicOnes.sort { (recentPhotos[$0.id!] ?? 0, $1.startsAt) > (recentPhotos[$1.id!] ?? 0, $0.startsAt) }
        return Array((close + publicOnes).prefix(limit))
    }

    /// Invitations to the viewer, newest first, leaving out moments they may no longer see.
    func invitations(_ viewer: UUID, page: PageRequest) async throws -> Page<Invitation> {
        let members = try await MomentMember.query(on: db).filter(\.$userID == viewer).filter(\.$invitedBy != nil)
            .newestFirst(page).all()
        let moments = try await visibleMoments(members.map(\.momentID), viewer: viewer)
        let rows = members.prefix(page.limit).compactMap { member in moments[member.momentID].map { Invitation(member: member, moment: $0) } }
        var result = Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.member.id!) }
        // Rows left out above must not end the paging early: the cursor follows the fetched rows.
        result.nextCursor = members.count > page.limit ? PageCursor(id: members[page.limit - 1].id!).encoded : nil
        return result
    }

    /// Memory lane: the moments the viewer checked in to, most recent check-in first. The cursor is
    /// the last row's membership; the next page continues after its check-in time (ties by id).
    func checkIns(_ viewer: UUID, page: PageRequest) async throws -> Page<CheckIn> {
        let query = MomentMember.query(on: db).filter(\.$userID == viewer).filter(\.$checkedInAt != nil)
        if let cursor = page.cursor {
            guard let after = try await MomentMember.find(cursor.id, on: db), after.userID == viewer, let at = after.checkedInAt
            else { throw Problem.invalidCursor() }
            query.group(.or) { or in
                or.filter(\.$checkedInAt < at)
                or.group(.and) { tie in tie.filter(\.$checkedInAt == at).filter(\.$id < cursor.id) }
            }
        }
        let members = try await query.sort(\.$checkedInAt, .descending).sort(\.$id, .descending).limit(page.limit + 1).all()
        let moments = try await visibleMoments(members.map(\.momentID), viewer: viewer)
        let rows = members.prefix(page.limit).compactMap { member in
            moments[member.momentID].map { CheckIn(moment: $0, checkedInAt: member.checkedInAt!) }
        }
        var result = Page(fetched: rows, limit: page.limit) { _ in PageCursor(id: UUID()) }
        result.nextCursor = members.count > page.limit ? PageCursor(id: members[page.limit - 1].id!).encoded : nil
        return result
    }

    /// Moments both people checked in to (were there, not only said they would come), newest first.
    func inCommon(_ viewer: UUID, with other: UUID, page: PageRequest) async throws -> Page<Moment> {
        _ = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).visibleUser(other, to: viewer)
        let mine = try await MomentMember.query(on: db).filter(\.$userID == viewer).filter(\.$checkedInAt != nil).all(\.$momentID)
        guard !mine.isEmpty else { return Page(fetched: [], limit: page.limit) { PageCursor(id: $0.id!) } }
        let common = try await MomentMember.query(on: db).filter(\.$userID == other).filter(\.$momentID ~~ mine)
            .filter(\.$checkedInAt != nil).all(\.$momentID)
        guard !common.isEmpty else { return Page(fetched: [], limit: page.limit) { PageCursor(id: $0.id!) } }
        let rows = try await Moment.query(on: db).filter(\.$id ~~ common).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// The last moment `other` checked in to that the viewer may see.
    func lastSeen(_ viewer: UUID, of other: UUID) async throws -> CheckIn? {
        _ = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).visibleUser(other, to: viewer)
        let recent = try await MomentMember.query(on: db).filter(\.$userID == other).filter(\.$checkedInAt != nil)
            .sort(\.$checkedInAt, .descending).limit(50).all()
        let moments = try await visibleMoments(recent.map(\.momentID), viewer: viewer)
        return recent.lazy.compactMap { member in moments[member.momentID].map { CheckIn(moment: $0, checkedInAt: member.checkedInAt!) } }.first
    }

    /// Of `ids`, the moments the viewer may see.
    func visibleMoments(_ ids: [UUID], viewer: UUID) async throws -> [UUID: Moment] {
        guard !ids.isEmpty else { return [:] }
        let moments = try await Moment.query(on: db).filter(\.$id ~~ Set(ids)).all()
        let memberOf = Set(try await MomentMember.query(on: db).filter(\.$userID == viewer).filter(\.$momentID ~~ Set(ids)).all(\.$momentID))
        let blocked = try await SocialGraph(db: db).blockedPeople(of: viewer)
        var result: [UUID: Moment] = [:]
        for moment in moments where moment.creatorID == viewer
            || ((moment.isPublic || memberOf.contains(moment.id!)) && !blocked.contains(moment.creatorID)) {
            result[moment.id!] = moment
        }
        return result
    }
}
