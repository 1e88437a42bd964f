import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/moments/{id}/invitations|members|join|ignore|check-in`, `/me/invitations`, `/me/check-ins`.
extension APIHandler {
    func inviteToMoment(_ input: Operations.InviteToMoment.Input) async throws -> Operations.InviteToMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let moment = try await MomentService(db: req.db, core: services.core, mediaLibrary: services.media).own(try momentID(input.path.momentId), by: user.requireID())
        let ids = try body.userIds.map { raw -> UUID in
            guard let id = UUID(uuidString: raw) else { throw Problem.invalid("userIds", "contains something that is not an id") }
            return id
        }
        let members = try await MembershipService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).invite(ids, to: moment, by: user)
        return .ok(.init(body: .json(.init(items: try await memberBodies(members, moment: moment, viewer: user, req), nextCursor: nil))))
    }

    func listMomentMembers(_ input: Operations.ListMomentMembers.Input) async throws -> Operations.ListMomentMembers.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let hidden = try await SocialGraph(db: req.db).blockedPeople(of: user.requireID())
        let query = MomentMember.query(on: req.db).filter(\.$momentID == (try moment.requireID()))
        if !hidden.isEmpty { query.filter(\.$userID !~ Array(hidden)) }
        let rows = try await query.newestFirst(page).all()
        let members = Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
        return .ok(.init(body: .json(.init(
            items: try await memberBodies(members.items, moment: moment, viewer: user, req), nextCursor: members.nextCursor))))
    }

    func connectAtMoment(_ input: Operations.ConnectAtMoment.Input) async throws -> Operations.ConnectAtMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let otherID = try PathID.parse(input.path.userId, "user")
        try await MembershipService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).connect(otherID, at: moment, by: user)
        guard let person = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).person(otherID, viewer: user.requireID()) else {
            throw Problem.notFound("user")
        }
        return .ok(.init(body: .json(.init(person))))
    }

    func joinMoment(_ input: Operations.JoinMoment.Input) async throws -> Operations.JoinMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, member) = try await visibleMoment(input.path.momentId, to: user, req)
        let joined = try await MembershipService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).join(moment, member: member, userID: user.requireID())
        return .ok(.init(body: .json(try await memberBody(joined, moment: moment, viewer: user, req))))
    }

    func ignoreMoment(_ input: Operations.IgnoreMoment.Input) async throws -> Operations.IgnoreMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, member) = try await visibleMoment(input.path.momentId, to: user, req)
        let ignored = try await MembershipService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).ignore(moment, member: member)
        return .ok(.init(body: .json(try await memberBody(ignored, moment: moment, viewer: user, req))))
    }

    func checkInToMoment(_ input: Operations.CheckInToMoment.Input) async throws -> Operations.CheckInToMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let (moment, member) = try await visibleMoment(input.path.momentId, to: user, req)
        let checkedIn = try await MembershipService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).checkIn(
            moment, member: member, userID: user.requireID(), lat: body.lat, lng: body.lng, accuracy: body.accuracyMeters)
        return .ok(.init(body: .json(try await memberBody(checkedIn, moment: moment, viewer: user, req))))
    }

    func listMyInvitations(_ input: Operations.ListMyInvitations.Input) async throws -> Operations.ListMyInvitations.Output {
        let (req, user) = try await socialCaller()
        let page = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .invitations(user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let moments = Dictionary(try await momentBodies(page.items.map(\.moment), viewer: user, req).map { ($0.id, $0) },
                                 uniquingKeysWith: { a, _ in a })
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media)
            .peopleByID(page.items.compactMap(\.member.invitedBy), viewer: user.requireID())
        let items: [Components.Schemas.Invitation] = page.items.compactMap { invitation in
            guard let moment = moments[invitation.moment.id!.idString], let inviter = invitation.member.invitedBy.flatMap({ people[$0] }),
                let invitedAt = invitation.member.invitedAt else { return nil }
            return .init(moment: moment, invitedBy: .init(inviter), invitedAt: invitedAt, state: .init(invitation.member.memberState))
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    func listMyCheckIns(_ input: Operations.ListMyCheckIns.Input) async throws -> Operations.ListMyCheckIns.Output {
        let (req, user) = try await socialCaller()
        let page = try await MomentLists(db: req.db, core: services.core, mediaLibrary: services.media)
            .checkIns(user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let bodies = try await momentBodies(page.items.map(\.moment), viewer: user, req)
        let byID = Dictionary(bodies.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let items: [Components.Schemas.CheckIn] = page.items.compactMap { checkIn in
            byID[checkIn.moment.id!.idString].map { .init(moment: $0, checkedInAt: checkIn.checkedInAt) }
        }
        return .ok(.init(body: .json(.init(items: items, nextCursor: page.nextCursor))))
    }

    private func memberBodies(_ members: [MomentMember], moment: Moment, viewer: User, _ req: Request) async throws -> [Components.Schemas.Member] {
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).peopleByID(members.map(\.userID), viewer: viewer.requireID())
        return members.compactMap { member in
            people[member.userID].map {
                .init(person: .init($0), state: .init(member.memberState), isCreator: member.userID == moment.creatorID,
                      invitedAt: member.invitedAt, joinedAt: member.joinedAt, checkedInAt: member.checkedInAt)
            }
        }
    }

    private func memberBody(_ member: MomentMember, moment: Moment, viewer: User, _ req: Request) async throws -> Components.Schemas.Member {
        guard let body = try await memberBodies([member], moment: moment, viewer: viewer, req).first else { throw Problem.notFound("member") }
        return body
    }
}
