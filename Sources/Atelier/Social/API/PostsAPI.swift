import AtelierServerAPI
import Foundation
import Vapor

/// `/posts…`, `/feed/friends` and `/me/posts…`: outfit-of-the-day posts.
extension APIHandler {
    func createPost(_ input: Operations.CreatePost.Input) async throws -> Operations.CreatePost.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        guard let mediaID = UUID(uuidString: body.mediaId) else { throw Problem.invalid("mediaId", "is not an id") }
        let post = try await PostService(db: req.db, core: services.core, mediaLibrary: services.media).create(by: user, mediaID: mediaID, caption: body.caption)
        return .created(.init(body: .json(try await postBody(post, viewer: user, req))))
    }

    func getPost(_ input: Operations.GetPost.Input) async throws -> Operations.GetPost.Output {
        let (req, user) = try await socialCaller()
        let post = try await PostService(db: req.db, core: services.core, mediaLibrary: services.media)
            .visiblePost(try PathID.parse(input.path.postId, "post"), to: user.requireID())
        return .ok(.init(body: .json(try await postBody(post, viewer: user, req))))
    }

    func updatePost(_ input: Operations.UpdatePost.Input) async throws -> Operations.UpdatePost.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let service = PostService(db: req.db, core: services.core, mediaLibrary: services.media)
        let post = try await service.ownPost(try PathID.parse(input.path.postId, "post"), of: user.requireID())
        let updated = try await service.updateCaption(post, to: body.caption)
        return .ok(.init(body: .json(try await postBody(updated, viewer: user, req))))
    }

    func deletePost(_ input: Operations.DeletePost.Input) async throws -> Operations.DeletePost.Output {
        let (req, user) = try await socialCaller()
        let service = PostService(db: req.db, core: services.core, mediaLibrary: services.media)
        try await service.delete(try await service.ownPost(try PathID.parse(input.path.postId, "post"), of: user.requireID()))
        return .noContent(.init())
    }

    func getFriendsFeed(_ input: Operations.GetFriendsFeed.Input) async throws -> Operations.GetFriendsFeed.Output {
        let (req, user) = try await socialCaller()
        let feed = try await PostFeed(db: req.db, core: services.core)
            .friends(of: user, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(
            items: try await postBodies(feed.posts.items, viewer: user, req), nextCursor: feed.posts.nextCursor,
            today: feed.today.description, postedToday: feed.postedToday, hiddenToday: feed.hiddenToday))))
    }

    func listMyPosts(_ input: Operations.ListMyPosts.Input) async throws -> Operations.ListMyPosts.Output {
        let (req, user) = try await socialCaller()
        let page = try await PostFeed(db: req.db, core: services.core)
            .mine(user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await postBodies(page.items, viewer: user, req), nextCursor: page.nextCursor))))
    }

    func getMyPostDay(_ input: Operations.GetMyPostDay.Input) async throws -> Operations.GetMyPostDay.Output {
        let (req, user) = try await socialCaller()
        let (day, post) = try await PostFeed(db: req.db, core: services.core).mine(user.requireID(), on: input.path.date)
        return .ok(.init(body: .json(.init(date: day.description, post: try await post.asyncMap { try await postBody($0, viewer: user, req) }))))
    }

    func getMyRecap(_ input: Operations.GetMyRecap.Input) async throws -> Operations.GetMyRecap.Output {
        let (req, user) = try await socialCaller()
        let recap = try await PostFeed(db: req.db, core: services.core)
            .recap(user.requireID(), month: input.query.month, year: input.query.year)
        return .ok(.init(body: .json(.init(
            period: recap.period, from: recap.from.description, to: recap.to.description,
            items: try await postBodies(recap.posts, viewer: user, req)))))
    }

    func listTrendingPosts(_ input: Operations.ListTrendingPosts.Input) async throws -> Operations.ListTrendingPosts.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let limit = input.query.limit ?? 20
        guard (1...50).contains(limit) else { throw Problem.invalid("limit", "must be 1 to 50") }
        let posts = try await PostFeed(db: req.db, core: services.core).trending(for: user, limit: limit)
        return .ok(.init(body: .json(.init(
            items: try await postBodies(posts, viewer: user, req), since: services.clock.now().addingTimeInterval(-PostFeed.trendingWindow)))))
    }

    func postBodies(_ posts: [Post], viewer: User, _ req: Request) async throws -> [Components.Schemas.Post] {
        let views = try await PostViews(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).views(posts, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        return views.map { Components.Schemas.Post($0, media: media) }
    }

    func postBody(_ post: Post, viewer: User, _ req: Request) async throws -> Components.Schemas.Post {
        guard let body = try await postBodies([post], viewer: viewer, req).first else { throw Problem.notFound("post") }
        return body
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
