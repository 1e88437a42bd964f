import Fluent
import Foundation

/// Posts with what a card shows: the author, the photo, reaction counts and the comment count,
/// loaded for a whole page in a fixed number of queries.
struct PostViews {
    struct View: Sendable {
        var post: Post
        var author: PeopleDirectory.Person
        var photo: Media
        var reactions: ReactionService.Summary
        var commentCount: Int
        var canEdit: Bool
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    func views(_ posts: [Post], viewer viewerID: UUID) async throws -> [View] {
        guard !posts.isEmpty else { return [] }
        let ids = posts.map { $0.id! }
        let authors = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).peopleByID(Array(Set(posts.map(\.authorID))), viewer: viewerID)
        let media = try await Media.query(on: db).filter(\.$id ~~ posts.map(\.mediaID)).all()
        let photos = Dictionary(media.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
        let reactions = try await ReactionService(db: db, core: core, live: live).summaries(of: ids, viewer: viewerID)
        let comments = try await CommentService(db: db, core: core, live: live).counts(of: ids)
        return posts.compactMap { post in
            guard let author = authors[post.authorID], let photo = photos[post.mediaID] else { return nil }
            return View(
                post: post, author: author, photo: photo,
                reactions: reactions[post.id!] ?? .init(total: 0, counts: [], mine: nil),
                commentCount: comments[post.id!] ?? 0, canEdit: post.authorID == viewerID)
        }
    }
}
