import Fluent
import OpenAPIRuntime
import Vapor

/// Outfit of the day on the web: the friends feed with its composer and gate, the post page with
/// reactions and comments, and the author's edits.
enum PostWebPages {
    struct ReactionButton: Encodable {
        var kind: String
        var emoji: String
        var count: Int
        var mine: Bool
    }

    struct PostCard: Encodable {
        var id: String
        var url: String
        var author: PersonCard
        var image: WebImage?
        var caption: String
        var day: String
        var reactions: [ReactionButton]
        var reactionTotal: Int
        var commentCount: Int
        var hidden: Bool
        var canEdit: Bool
    }

    struct CommentRow: Encodable {
        var id: String
        var author: PersonCard
        var body: String
        var createdAt: Date
        var canDelete: Bool
    }

    struct FeedPage: WebPageContext {
        var page: PageContext
        var posts: [PostCard]
        var today: String
        var postedToday: Bool
        var hiddenToday: Int
        var nextCursor: String?
        /// The most reacted posts of the week in the person's circle (first page only).
        var trending: [PostCard]
    }

    struct PostPage: WebPageContext {
        var page: PageContext
        var post: PostCard
        var comments: [CommentRow]
        var moreCommentsURL: String?
    }

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.get("ootd", use: feedPage)
        signedIn.on(.POST, "ootd", body: .collect(maxSize: "40mb"), use: create)
        signedIn.get("posts", ":postID", use: postPage)
        signedIn.post("posts", ":postID", "react", use: react)
        signedIn.post("posts", ":postID", "comments", use: comment)
        signedIn.post("posts", ":postID", "comments", ":commentID", "delete", use: deleteComment)
        signedIn.post("posts", ":postID", "caption", use: editCaption)
        signedIn.post("posts", ":postID", "delete", use: delete)
    }

    static func feedPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let posts = PostFeed(db: req.db, core: req.core)
        let cursor = req.query[String.self, at: "cursor"]
        let feed = try await posts.friends(of: user, page: PageRequest(limit: 12, cursor: cursor))
        let trending = cursor == nil ? try await posts.trending(for: user, limit: 3) : []
        return try await req.renderPage("social/ootd", FeedPage(
            page: PageContext(req, title: "Outfit of the day"), posts: try await cards(feed.posts.items, viewer: user, req: req),
            today: feed.today.description, postedToday: feed.postedToday, hiddenToday: feed.hiddenToday,
            nextCursor: feed.posts.nextCursor, trending: try await cards(trending, viewer: user, req: req)))
    }

    /// The composer: the photo goes through the media pipeline (private), then becomes the post.
    static func create(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        struct Form: Content { var photo: File?; var caption: String? }
        return try await req.formAction(redirectTo: "/ootd") {
            let form = try req.content.decode(Form.self)
            guard let file = form.photo, file.data.readableBytes > 0 else { throw Problem.invalid("photo", "is missing; choose a photo of your outfit") }
            _ = try PostService.validCaption(form.caption ?? "")
            let upload = MediaService.Upload(
                uploaderID: try user.requireID(), claimed: ImageFormat.claimed(mediaType: file.contentType?.description, filename: file.filename),
                edits: ImageEdits(crop: nil, rotate: 0, whiteBackground: false), visibility: .private)
            let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
            let stored = try await media.ingest(upload, body: HTTPBody(Array(file.data.readableBytesView)))
            do {
                _ = try await PostService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).create(by: user, mediaID: stored.requireID(), caption: form.caption)
            } catch {
                try? await media.delete(stored)
                throw error
            }
            return "Posted. Today's outfits of your friends are open to you now."
        }
    }

    static func postPage(_ req: Request) async throws -> View {
        let user = try req.requireWebUser()
        let post = try await visiblePost(req, user: user)
        let comments = try await CommentService(db: req.db, core: req.core, live: req.atelier.live)
            .list(on: post, viewer: user.requireID(), page: PageRequest(limit: 50, cursor: req.query[String.self, at: "cursor"]))
        let authors = try await PeopleDirectory(db: req.db, core: req.core, mediaLibrary: req.atelier.media).peopleByID(comments.items.map(\.authorID), viewer: user.requireID())
        guard let card = try await cards([post], viewer: user, req: req).first else { throw Problem.notFound("post") }
        return try await req.renderPage("social/post", PostPage(
            page: PageContext(req, title: "\(card.author.displayName) · \(card.day)"), post: card,
            comments: comments.items.compactMap { comment in
                authors[comment.authorID].map {
                    CommentRow(id: comment.id!.idString, author: PersonCard($0), body: comment.body, createdAt: comment.createdAt,
                               canDelete: CommentService.canDelete(comment, on: post, by: user.id!))
                }
            },
            moreCommentsURL: comments.nextCursor.map { "/posts/\(card.id)?cursor=\($0)#comments" }))
    }

    static func react(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let post = try await visiblePost(req, user: user)
        return try await req.formAction(redirectTo: "/posts/\(post.id!.idString)") {
            let kind = try ReactionService.Kind.parse((try? req.content.get(String.self, at: "kind")) ?? "")
            let service = ReactionService(db: req.db, core: req.core, live: req.atelier.live)
            let current = try await service.summaries(of: [post.id!], viewer: user.requireID())[post.id!]?.mine
            if current == kind {
                _ = try await service.unreact(to: post, by: user.requireID())
            } else {
                _ = try await service.react(to: post, by: user, kind: kind)
            }
            return nil
        }
    }

    static func comment(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let post = try await visiblePost(req, user: user)
        return try await req.formAction(redirectTo: "/posts/\(post.id!.idString)#comments") {
            _ = try await CommentService(db: req.db, core: req.core, live: req.atelier.live).add(to: post, by: user, body: (try? req.content.get(String.self, at: "body")) ?? "")
            return nil
        }
    }

    static func deleteComment(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let post = try await visiblePost(req, user: user)
        guard let commentID = req.parameters.get("commentID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("comment") }
        return try await req.formAction(redirectTo: "/posts/\(post.id!.idString)#comments") {
            let service = CommentService(db: req.db, core: req.core, live: req.atelier.live)
            try await service.delete(try await service.comment(commentID, on: post, viewer: user.requireID()), on: post, by: user.requireID())
            return "Comment deleted."
        }
    }

    static func editCaption(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let service = PostService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let post = try await service.ownPost(try postID(req), of: user.requireID())
        return try await req.formAction(redirectTo: "/posts/\(post.id!.idString)") {
            _ = try await service.updateCaption(post, to: (try? req.content.get(String.self, at: "caption")) ?? "")
            return "Caption saved."
        }
    }

    static func delete(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let service = PostService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        let post = try await service.ownPost(try postID(req), of: user.requireID())
        try await service.delete(post)
        Flash.set("success", "Post deleted. You may post again today.", on: req)
        return req.redirect(to: "/ootd")
    }

    static func cards(_ posts: [Post], viewer: User, req: Request) async throws -> [PostCard] {
        let views = try await PostViews(db: req.db, core: req.core, live: req.atelier.live, mediaLibrary: req.atelier.media).views(posts, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media)
        return views.map { view in
            let id = view.post.id!.idString
            let counts = Dictionary(view.reactions.counts.map { ($0.kind, $0.count) }, uniquingKeysWith: +)
            return PostCard(
                id: id, url: "/posts/\(id)", author: PersonCard(view.author),
                image: WebImage(view.photo, alt: "Outfit of \(view.author.user.displayName) on \(view.post.day)", service: media),
                caption: view.post.caption, day: view.post.day,
                reactions: ReactionService.Kind.allCases.map {
                    ReactionButton(kind: $0.rawValue, emoji: $0.emoji, count: counts[$0] ?? 0, mine: view.reactions.mine == $0)
                },
                reactionTotal: view.reactions.total, commentCount: view.commentCount, hidden: view.post.hiddenAt != nil,
                canEdit: view.canEdit)
        }
    }

    private static func postID(_ req: Request) throws -> UUID {
        guard let id = req.parameters.get("postID").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound("post") }
        return id
    }

    private static func visiblePost(_ req: Request, user: User) async throws -> Post {
        try await PostService(db: req.db, core: req.core, mediaLibrary: req.atelier.media).visiblePost(try postID(req), to: user.requireID())
    }
}
