import Fluent
import Foundation

extension SocialGraph {
    /// Live events of someone blocked either way are not shown.
    static func registerLiveHiding(in access: LiveChannelAccess) {
        access.hideActors { viewer, actor, db in
            try await SocialGraph(db: db).blockedEitherWay(viewer, actor)
        }
    }
}
