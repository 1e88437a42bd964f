import Fluent
import Foundation

extension MomentService {
    /// "moment:<id>": whoever may see the moment listens to its album.
    static func registerLiveChannel(in access: LiveChannelAccess, core: CoreServices, mediaLibrary: MediaLibrary) {
        access.register(kind: "moment") { id, userID, db in
            _ = try await MomentService(db: db, core: core, mediaLibrary: mediaLibrary).visible(id, to: userID)
            return true
        }
    }
}
