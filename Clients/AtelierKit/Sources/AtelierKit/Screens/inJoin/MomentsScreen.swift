import AtelierAPI
import Foundation
import Observation

/// inJoin's first screen: the moments a person made or is invited to (newest first), the
/// invitations waiting for an answer, and "I'm at something right now".
@MainActor
@Observable
public final class MomentsScreen {
    public let moments: PagedListScreen<Components.Schemas.Moment>
    public let invitations: PagedListScreen<Components.Schemas.Invitation>
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
        moments = PagedListScreen(session.moments.listMyMomentsItems())
        invitations = PagedListScreen(session.moments.listMyInvitationsItems())
    }

    public func load() async {
        await moments.reload()
        await invitations.reload()
    }

    /// A quick moment where the person stands, already checked in; it tops the list.
    @discardableResult
    public func startHere(lat: Double, lng: Double, accuracyMeters: Double? = nil, at place: QuickMoments.Place = .here) async -> Components.Schemas.Moment? {
        guard let moment = await activity.run({ [session] in
            try await QuickMoments(session: session).start(lat: lat, lng: lng, accuracyMeters: accuracyMeters, at: place)
        }) else { return nil }
        moments.prepend(moment)
        return moment
    }
}
