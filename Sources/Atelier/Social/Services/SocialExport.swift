import Fluent
import Foundation

/// The social part of "export my data": my posts (with their original photos), my comments,
/// my friends and the people I blocked.
struct SocialExport {
    struct PostEntry: Encodable {
        var id: String
        var day: String
        var timeZone: String
        var caption: String
        var createdAt: Date
        var editedAt: Date?
        var hiddenByModeration: Bool
        var reactions: Int
        /// The original photo's path inside the archive.
        var photo: String?
    }

    struct CommentEntry: Encodable {
        var postID: String
        var body: String
        var createdAt: Date
    }

    struct PersonEntry: Encodable {
        var username: String
        var displayName: String
        var since: Date
    }

    /// An original photo to copy into the archive.
    typealias Photo = AccountParts.ExportedPhoto

    /// Social's part of "export my data": posts with their photos, comments, friends, blocks.
    static func register(in parts: AccountParts, core: CoreServices, live: LiveUpdates) {
        parts.onExport { userID, encoder, db in
            let collected = try await SocialExport(db: db, core: core, live: live).collect(for: userID, encoder: encoder)
            return .init(files: collected.files, photos: collected.photos)
        }
    }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    func collect(for userID: UUID, encoder: JSONEncoder) async throws -> (files: [(String, Data)], photos: [Photo]) {
        let posts = try await Post.query(on: db).filter(\.$authorID == userID).sort(\.$day).all()
        let media = try await Media.query(on: db).filter(\.$id ~~ posts.map(\.mediaID)).all()
        let originals = Dictionary(media.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
        let reactions = try await ReactionService(db: db, core: core, live: live).summaries(of: posts.map { $0.id! }, viewer: userID)
        var photos: [Photo] = []
        let postEntries = posts.map { post -> PostEntry in
            var path: String?
            if let original = originals[post.mediaID] {
                let file = "photos/posts/\(post.day).\((original.originalKey as NSString).pathExtension)"
                photos.append(Photo(path: file, key: original.originalKey))
                path = file
            }
            return PostEntry(
                id: post.id!.idString, day: post.day, timeZone: post.timeZone, caption: post.caption, createdAt: post.createdAt,
                editedAt: post.editedAt, hiddenByModeration: post.hiddenAt != nil, reactions: reactions[post.id!]?.total ?? 0, photo: path)
        }
        let comments = try await PostComment.query(on: db).filter(\.$authorID == userID).sort(\.$id).all()
            .map { CommentEntry(postID: $0.postID.idString, body: $0.body, createdAt: $0.createdAt) }
        let friendships = try await Friendship.query(on: db).filter(\.$userID == userID).all()
        let blocks = try await UserBlock.query(on: db).filter(\.$blockerID == userID).all()
        let people = try await User.query(on: db).filter(\.$id ~~ (friendships.map(\.friendID) + blocks.map(\.blockedID))).all()
        let byID = Dictionary(people.map { ($0.id!, $0) }, uniquingKeysWith: { a, _ in a })
        func entry(_ id: UUID, since: Date) -> PersonEntry? {
            byID[id].map { PersonEntry(username: $0.username, displayName: $0.displayName, since: since) }
        }
        return (
            [
                ("posts.json", try encoder.encode(postEntries)),
                ("comments.json", try encoder.encode(comments)),
                ("friends.json", try encoder.encode(friendships.compactMap { entry($0.friendID, since: $0.createdAt) })),
                ("blocked.json", try encoder.encode(blocks.compactMap { entry($0.blockedID, since: $0.createdAt) })),
            ],
            photos
        )
    }
}
