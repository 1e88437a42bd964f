import Fluent
import Foundation

extension PostService {
    /// A post's photo: whoever may see the post (its author's friends, the author).
    static func registerMediaAccess(in owners: MediaOwnerAccess, core: CoreServices, mediaLibrary: MediaLibrary) {
        owners.register(ownerType: Post.mediaOwnerType) { [unowned mediaLibrary] postID, viewer, db in
            _ = try await PostService(db: db, core: core, mediaLibrary: mediaLibrary).visiblePost(postID, to: viewer)
            return true
        }
    }
}
