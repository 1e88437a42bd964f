import Fluent
import Foundation

/// Invitations, joining, ignoring and checking in.
struct MembershipService {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// The creator invites their connections (friends are connected too); anyone else in `userIDs`
    /// (strangers, blocked people) is a 422 and nobody is invited. People already in the moment
    /// keep their state.
    func invite(_ userIDs: [UUID], to moment: Moment, by creator: User) async throws -> [MomentMember] {
        let creatorID = try creator.requireID()
        let momentID = try moment.requireID()
        let wanted = Array(NSOrderedSet(array: userIDs.filter { $0 != creatorID })) as! [UUID]
        guard !wanted.isEmpty else { throw Problem.invalid("userIds", "names nobody but you") }
        let graph = SocialGraph(db: db)
        let connected = Set(try await graph.connectionIDs(of: creatorID))
        let blocked = try await graph.blockedPeople(of: creatorID)
        let refused = wanted.filter { !connected.contains($0) || blocked.contains($0) }
        guard refused.isEmpty else {
            throw Problem.invalid("userIds", "may only name your friends and connections (\(refused.count) of them are not)")
        }
        let now = self.now
        let momentPath = momentID.idString
        let message = NotificationMessage.momentInvitation(actor: creator.displayName, moment: moment.name)
        let write: @Sendable (any Database) async throws -> [MomentMember] = { tx in
            let existing = try await MomentMember.query(on: tx).filter(\.$momentID == momentID).filter(\.$userID ~~ wanted).all()
            let known = Set(existing.map(\.userID))
            var result = existing
            for userID in wanted where !known.contains(userID) {
                let member = MomentMember()
                member.id = .v7(at: now)
                member.momentID = momentID
                member.userID = userID
                member.state = MomentMember.State.invited.rawValue
                member.invitedBy = creatorID
                member.invitedAt = now
                member.updatedAt = now
                try await member.create(on: tx)
                result.append(member)
                try await InboxService.record(.init(
                    recipientID: userID, kind: .momentInvitation, actorID: creatorID, message: message,
                    link: "atelier://moments/\(momentPath)", webPath: "/moments/\(momentPath)"), on: tx, now: now)
            }
            return result
        }
        let invited: [MomentMember]
        do {
            invited = try await core.writeTransaction(on: db, write)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Invited at the same moment by another request: this time those rows are found.
            invited = try await core.writeTransaction(on: db, write)
        }
        for member in invited where member.invitedAt == now {
            await InboxService.announce(.momentInvitation, to: member.userID, by: creatorID, live: live)
        }
        return invited
    }

    /// Connects the caller with `otherID`, another person in this moment (both joined, checked in
    /// or its host): meeting at a moment is how strangers connect (social.md).
    func connect(_ otherID: UUID, at moment: Moment, by user: User) async throws {
        let userID = try user.requireID()
        let members = try await MomentMember.query(on: db).filter(\.$momentID == moment.requireID())
            .filter(\.$userID ~~ [userID, otherID]).all()
        func isIn(_ id: UUID) -> Bool {
            id == moment.creatorID || members.contains { $0.userID == id && MomentLists.activeStates.contains($0.state) }
        }
        guard isIn(userID) else { throw Problem.conflict("Join the moment first to connect with the people in it.", field: "momentId") }
        guard isIn(otherID) else { throw Problem.invalid("userId", "is not in this moment") }
        try await ConnectionService(db: db, core: core, mediaLibrary: mediaLibrary).connect(otherID, with: user)
    }

    /// RSVP yes. Public moments may be joined by anyone who sees them; private ones by invitees.
    func join(_ moment: Moment, member: MomentMember?, userID: UUID) async throws -> MomentMember {
        if let member {
            if member.memberState == .invited || member.memberState == .ignored {
                member.state = MomentMember.State.joined.rawValue
                member.joinedAt = now
                member.updatedAt = now
                try await member.update(on: db)
            }
            return member
        }
        guard moment.isPublic else { throw Problem.notFound("moment") }
        return try await insert(moment, userID: userID, state: .joined)
    }

    func ignore(_ moment: Moment, member: MomentMember?) async throws -> MomentMember {
        guard let member else { throw Problem.conflict("You were not invited to this moment.") }
        guard moment.creatorID != member.userID else { throw Problem.conflict("You created this moment; delete it instead.") }
        guard member.memberState != .checkedIn else { throw Problem.conflict("You have checked in to this moment already.") }
        member.state = MomentMember.State.ignored.rawValue
        member.updatedAt = now
        try await member.update(on: db)
        return member
    }

    /// Checks in while the moment is on and the position is inside the place's radius, the
    /// reported accuracy counted in the person's favour (up to `MomentRules.worstUsableAccuracy`).
    func checkIn(_ moment: Moment, member: MomentMember?, userID: UUID, lat: Double, lng: Double, accuracy: Double?) async throws -> MomentMember {
        var errors = FieldErrors()
        Geo.check(lat: lat, lng: lng, into: &errors)
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) { errors.add("accuracyMeters", "must be zero or more") }
        try errors.throwIfAny()
        let now = self.now
        let formatter = ISO8601DateFormatter()
        switch moment.status(at: now) {
        case .upcoming:
            throw Problem(.conflict, type: "https://atelier.dev/problems/moment-not-ongoing", title: "Not on yet",
                          detail: "Check-in opens when the moment starts, at \(formatter.string(from: moment.startsAt)).")
        case .ended:
            throw Problem(.conflict, type: "https://atelier.dev/problems/moment-not-ongoing", title: "Over",
                          detail: "This moment ended at \(formatter.string(from: moment.endsAt)); check-in is closed.")
        case .ongoing: break
        }
        let accuracy = accuracy ?? 0
        guard accuracy <= MomentRules.worstUsableAccuracy else {
            throw Problem.invalid("accuracyMeters", "is ±\(MomentRules.meters(accuracy)): too imprecise to check in; try again with a better position fix")
        }
        guard let place = try await Place.find(moment.placeID, on: db) else { throw Problem.notFound("place") }
        let distance = MomentRules.distanceMeters(lat1: lat, lng1: lng, lat2: place.lat, lng2: place.lng)
        guard distance - accuracy <= Double(place.radiusMeters) else {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/too-far-to-check-in", title: "Too far away",
                detail: "You are \(MomentRules.meters(distance)) from \(place.name); check-in works within \(place.radiusMeters) m.",
                errors: [.init(field: "position", message: "is \(Int(distance.rounded())) m from the centre; the place's radius is \(place.radiusMeters) m")])
        }
        let row: MomentMember
        if let member {
            row = member
        } else {
            guard moment.isPublic else { throw Problem.notFound("moment") }
            row = try await insert(moment, userID: userID, state: .checkedIn)
        }
        row.state = MomentMember.State.checkedIn.rawValue
        if row.joinedAt == nil { row.joinedAt = now }
        row.checkedInAt = now
        row.updatedAt = now
        try await row.update(on: db)
        return row
    }

    private func insert(_ moment: Moment, userID: UUID, state: MomentMember.State) async throws -> MomentMember {
        let now = self.now
        let member = MomentMember()
        member.id = .v7(at: now)
        member.momentID = try moment.requireID()
        member.userID = userID
        member.state = state.rawValue
        member.joinedAt = now
        member.updatedAt = now
        do {
            try await member.create(on: db)
        } catch {
            // Joined twice at once: the other request's row stands.
            guard (error as? any DatabaseError)?.isConstraintFailure == true,
                let existing = try await MomentMember.query(on: db).filter(\.$momentID == member.momentID)
                .filter(\.$userID == userID).first() else { throw error }
            return existing
        }
        return member
    }
}
