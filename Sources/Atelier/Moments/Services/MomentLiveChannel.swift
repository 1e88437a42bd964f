import Fluent
import Foundation

extension MomentService {
    /// "moment:<id>": whoever may see the moment listens to its album.
    static func registerLiveChannel(in access: LiveChannelAccess, services: AtelierServices) {
        access.register(kind: "moment") { [unowned services] id, userID, db in
            _ = try await MomentService(db: db, services: services).visible(id, to: userID)
            return true
        }
    }
}
