import Fluent
import Foundation
import SQLKit

/// Comments on posts: oldest first, written by whoever may see the post; deleted by their author
/// or by the post's author. Comments between people who blocked each other are not shown.
struct CommentService {
    static let maxLength = 1000

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    func add(to post: Post, by author: User, body raw: String) async throws -> PostComment {
        let body = try PlainText.comment(raw, maxLength: Self.maxLength)
        let now = core.clock.now()
        let comment = PostComment()
        comment.id = .v7(at: now)
        comment.postID = try post.requireID()
        comment.authorID = try author.requireID()
        comment.body = body
        comment.createdAt = now
        let postPath = comment.postID.idString
        let excerpt = body.count > 80 ? String(body.prefix(79)) + "…" : body
        try await core.writeTransaction(on: db) { tx in
            try await comment.create(on: tx)
            try await InboxService.record(.init(
                recipientID: post.authorID, kind: .comment, actorID: comment.authorID,
                message: .comment(actor: author.displayName, excerpt: excerpt),
                link: "atelier://posts/\(postPath)", webPath: "/posts/\(postPath)#comments"), on: tx, now: now)
        }
        await InboxService.announce(.comment, to: post.authorID, by: comment.authorID, live: live)
        return comment
    }

    /// Oldest first, after the cursor. Hidden comments show only to their author.
    func list(on post: Post, viewer viewerID: UUID, page: PageRequest) async throws -> Page<PostComment> {
        let hiddenAuthors = try await SocialGraph(db: db).blockedPeople(of: viewerID)
        let query = PostComment.query(on: db).filter(\.$postID == (try post.requireID()))
            .group(.or) { $0.filter(\.$hiddenAt == nil).filter(\.$authorID == viewerID) }
        if !hiddenAuthors.isEmpty { query.filter(\.$authorID !~ Array(hiddenAuthors)) }
        if let cursor = page.cursor { query.filter(\.$id > cursor.id) }
        let rows = try await query.sort(\.$id, .ascending).limit(page.limit + 1).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func comment(_ id: UUID, on post: Post, viewer viewerID: UUID) async throws -> PostComment {
        guard let comment = try await PostComment.query(on: db).filter(\.$id == id).filter(\.$postID == post.requireID()).first(),
            comment.hiddenAt == nil || comment.authorID == viewerID,
            try await !SocialGraph(db: db).blockedEitherWay(viewerID, comment.authorID) || comment.authorID == viewerID
        else { throw Problem.notFound("comment") }
        return comment
    }

    static func canDelete(_ comment: PostComment, on post: Post, by userID: UUID) -> Bool {
        comment.authorID == userID || post.authorID == userID
    }

    func delete(_ comment: PostComment, on post: Post, by userID: UUID) async throws {
        guard Self.canDelete(comment, on: post, by: userID) else {
            throw Problem(.forbidden, detail: "Only its author or the post's author may delete a comment.")
        }
        try await comment.delete(on: db)
    }

    /// Comments shown per post (not hidden), for the post cards.
    func counts(of postIDs: [UUID]) async throws -> [UUID: Int] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try await db.sql.select().column("post_id")
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(PostComment.schema)
            .where("post_id", .in, postIDs).where("hidden_at", .is, SQLLiteral.null).groupBy("post_id").all()
        return try Dictionary(uniqueKeysWithValues: rows.map {
            (try $0.decode(column: "post_id", as: UUID.self), try $0.decode(column: "n", as: Int.self))
        })
    }
}
