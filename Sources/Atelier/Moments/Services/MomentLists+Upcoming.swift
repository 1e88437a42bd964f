import Fluent
import Foundation

/// What the signed-in home page lists: the moments someone is going to, and the invitations
/// they have not answered, both only while the moment has not ended, soonest first.
extension MomentLists {
    func upcoming(_ userID: UUID, limit: Int) async throws -> [Moment] {
        try await Moment.query(on: db)
            .join(MomentMember.self, on: \Moment.$id == \MomentMember.$momentID)
            .filter(MomentMember.self, \.$userID == userID)
            .filter(MomentMember.self, \.$state ~~ Self.activeStates)
            .filter(\.$endsAt > core.clock.now())
            .sort(\.$startsAt).sort(\.$id)
            .limit(limit).all()
    }

    func openInvitations(_ userID: UUID, limit: Int) async throws -> [Moment] {
        let members = try await MomentMember.query(on: db).filter(\.$userID == userID)
            .filter(\.$state == MomentMember.State.invited.rawValue).filter(\.$invitedBy != nil).all()
        let now = core.clock.now()
        // Moments the person may no longer see (left private, creator blocked) are left out.
        let visible = try await visibleMoments(members.map(\.momentID), viewer: userID)
        return visible.values.filter { $0.endsAt > now }.sorted { ($0.startsAt, $0.id!.idString) < ($1.startsAt, $1.id!.idString) }
            .prefix(limit).map { $0 }
    }
}
