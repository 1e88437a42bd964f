import Fluent
import Foundation

extension PostService {
    /// A post's photo: whoever may see the post (its author's friends, the author).
    static func registerMediaAccess(in owners: MediaOwnerAccess, services: AtelierServices) {
        owners.register(ownerType: Post.mediaOwnerType) { [unowned services] postID, viewer, db in
            _ = try await PostService(db: db, services: services).visiblePost(postID, to: viewer)
            return true
        }
    }
}
