import Fluent
import Foundation

extension MomentPhotoService {
    /// A moment photo's file: whoever may see the photo in its album (members, per moments.md).
    static func registerMediaAccess(in owners: MediaOwnerAccess, core: CoreServices, live: LiveUpdates, mediaLibrary: MediaLibrary) {
        owners.register(ownerType: MomentPhoto.mediaOwnerType) { [unowned mediaLibrary] photoID, viewer, db in
            guard let photo = try await MomentPhoto.find(photoID, on: db) else { return false }
            let (moment, _) = try await MomentService(db: db, core: core, mediaLibrary: mediaLibrary).visible(photo.momentID, to: viewer)
            _ = try await MomentPhotoService(db: db, core: core, live: live, mediaLibrary: mediaLibrary).photo(photoID, in: moment, viewer: viewer)
            return true
        }
    }
}
