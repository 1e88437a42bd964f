import AtelierServerAPI
import Foundation
import Vapor

/// `/posts/{id}/reaction` and `/posts/{id}/comments…`.
extension APIHandler {
    func reactToPost(_ input: Operations.ReactToPost.Input) async throws -> Operations.ReactToPost.Output {
        let (req, user, post) = try await visiblePost(input.path.postId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let kind = try ReactionService.Kind.parse(body.kind)
        let summary = try await ReactionService(db: req.db, core: services.core, live: services.live).react(to: post, by: user, kind: kind)
        return .ok(.init(body: .json(.init(summary))))
    }

    func unreactToPost(_ input: Operations.UnreactToPost.Input) async throws -> Operations.UnreactToPost.Output {
        let (req, user, post) = try await visiblePost(input.path.postId)
        let summary = try await ReactionService(db: req.db, core: services.core, live: services.live).unreact(to: post, by: user.requireID())
        return .ok(.init(body: .json(.init(summary))))
    }

    func listPostComments(_ input: Operations.ListPostComments.Input) async throws -> Operations.ListPostComments.Output {
        let (req, user, post) = try await visiblePost(input.path.postId)
        let viewerID = try user.requireID()
        let page = try await CommentService(db: req.db, core: services.core, live: services.live)
            .list(on: post, viewer: viewerID, page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        let authors = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).peopleByID(page.items.map(\.authorID), viewer: viewerID)
        return .ok(.init(body: .json(.init(
            items: page.items.compactMap { comment in
                authors[comment.authorID].map {
                    .init(comment, author: $0, canDelete: CommentService.canDelete(comment, on: post, by: viewerID))
                }
            },
            nextCursor: page.nextCursor))))
    }

    func addPostComment(_ input: Operations.AddPostComment.Input) async throws -> Operations.AddPostComment.Output {
        let (req, user, post) = try await visiblePost(input.path.postId)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let comment = try await CommentService(db: req.db, core: services.core, live: services.live).add(to: post, by: user, body: body.body)
        let viewerID = try user.requireID()
        guard let me = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).person(viewerID, viewer: viewerID) else {
            throw Problem.notFound("user")
        }
        return .created(.init(body: .json(.init(comment, author: me, canDelete: true))))
    }

    func deletePostComment(_ input: Operations.DeletePostComment.Input) async throws -> Operations.DeletePostComment.Output {
        let (req, user, post) = try await visiblePost(input.path.postId)
        let service = CommentService(db: req.db, core: services.core, live: services.live)
        let comment = try await service.comment(try PathID.parse(input.path.commentId, "comment"), on: post, viewer: user.requireID())
        try await service.delete(comment, on: post, by: user.requireID())
        return .noContent(.init())
    }

    private func visiblePost(_ rawID: String) async throws -> (Request, User, Post) {
        let (req, user) = try await socialCaller()
        let post = try await PostService(db: req.db, core: services.core, mediaLibrary: services.media)
            .visiblePost(try PathID.parse(rawID, "post"), to: user.requireID())
        return (req, user, post)
    }
}
