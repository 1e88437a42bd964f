import AtelierAPI
import Foundation
import Observation

/// OOTD's friends screen: friends' outfits of the day and mine, newest first. Today's posts of
/// friends stay hidden until I post mine (`hiddenToday` says how many wait), so the screen offers
/// "Post today's outfit" first; reactions change in place.
@MainActor
@Observable
public final class FriendsOutfitsScreen {
    public private(set) var posts: [Components.Schemas.Post] = []
    public private(set) var postedToday = false
    public private(set) var hiddenToday = 0
    public var hasMore: Bool { nextCursor != nil }
    /// Bytes sent of today's photo while it uploads, and its size.
    public private(set) var upload: UploadProgress?
    public let activity = ScreenActivity()
    private let session: AtelierSession
    private let pageSize: Int
    private var nextCursor: String?

    public init(session: AtelierSession, pageSize: Int = 20) {
        self.session = session
        self.pageSize = pageSize
    }

    /// The first page (and whether today's posts are open to me).
    public func load() async {
        guard let page = await fetch(cursor: nil) else { return }
        posts = page.items
    }

    public func loadMore() async {
        guard let cursor = nextCursor, let page = await fetch(cursor: cursor) else { return }
        posts += page.items
    }

    /// Posts today's outfit photo from a file (with progress), then shows the feed with friends' posts of today.
    public func postToday(file: URL, contentType: String, caption: String = "") async {
        let transfer = session.media.uploadShowingProgress(file: file, contentType: contentType) { [weak self] in self?.upload = $0 }
        guard await activity.run({ [session] in
            let image = try await transfer.value
            return try await session.social.createPost(.init(mediaId: image.id, caption: caption))
        }) != nil else { return }
        await load()
    }

    /// Reacts with `kind`, or takes my reaction back when it is already `kind`.
    public func react(postID: String, _ kind: Components.Schemas.ReactionKind) async {
        guard let post = posts.first(where: { $0.id == postID }) else { return }
        let takeBack = post.reactions.mine == kind
        guard let summary = await activity.run(exclusive: false, { [session] in
            takeBack ? try await session.social.unreactToPost(postId: postID) : try await session.social.reactToPost(postId: postID, .init(kind: kind.rawValue))
        }) else { return }
        if let index = posts.firstIndex(where: { $0.id == postID }) { posts[index].reactions = summary }
    }

    private func fetch(cursor: String?) async -> Components.Schemas.FriendsFeed? {
        guard let page = await activity.run({ [session, pageSize] in
            try await session.social.getFriendsFeed(query: .init(limit: pageSize, cursor: cursor))
        }) else { return nil }
        (postedToday, hiddenToday, nextCursor) = (page.postedToday, page.hiddenToday, page.nextCursor)
        return page
    }
}
