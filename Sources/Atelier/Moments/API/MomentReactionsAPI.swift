import AtelierServerAPI
import Foundation
import Vapor

/// Faves and comments on moments and on their photos.
extension APIHandler {
    func faveMoment(_ input: Operations.FaveMoment.Input) async throws -> Operations.FaveMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let summary = try await MomentFaves(db: req.db, core: services.core).fave(moment.id!, in: moment.id!, by: user.requireID())
        await MomentLive(core: services.core, live: services.live).favesChanged(target: moment.id!, momentID: moment.id!, count: summary.count)
        return .ok(.init(body: .json(.init(summary))))
    }

    func unfaveMoment(_ input: Operations.UnfaveMoment.Input) async throws -> Operations.UnfaveMoment.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let summary = try await MomentFaves(db: req.db, core: services.core).unfave(moment.id!, by: user.requireID())
        await MomentLive(core: services.core, live: services.live).favesChanged(target: moment.id!, momentID: moment.id!, count: summary.count)
        return .ok(.init(body: .json(.init(summary))))
    }

    func faveMomentPhoto(_ input: Operations.FaveMomentPhoto.Input) async throws -> Operations.FaveMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let summary = try await MomentFaves(db: req.db, core: services.core).fave(photo.id!, in: moment.id!, by: user.requireID())
        await MomentLive(core: services.core, live: services.live).favesChanged(target: photo.id!, momentID: moment.id!, count: summary.count)
        return .ok(.init(body: .json(.init(summary))))
    }

    func unfaveMomentPhoto(_ input: Operations.UnfaveMomentPhoto.Input) async throws -> Operations.UnfaveMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let summary = try await MomentFaves(db: req.db, core: services.core).unfave(photo.id!, by: user.requireID())
        await MomentLive(core: services.core, live: services.live).favesChanged(target: photo.id!, momentID: moment.id!, count: summary.count)
        return .ok(.init(body: .json(.init(summary))))
    }

    func listMomentComments(_ input: Operations.ListMomentComments.Input) async throws -> Operations.ListMomentComments.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let page = try await MomentComments(db: req.db, core: services.core).list(
            on: moment.id!, photoID: nil, viewer: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await commentBodies(page.items, in: moment, viewer: user, req), nextCursor: page.nextCursor))))
    }

    func commentOnMoment(_ input: Operations.CommentOnMoment.Input) async throws -> Operations.CommentOnMoment.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let comment = try await MomentComments(db: req.db, core: services.core).add(to: moment, photo: nil, by: user, body: body.body)
        let created = try await commentBody(comment, in: moment, viewer: user, req)
        await MomentLive(core: services.core, live: services.live).commentAdded(created, momentID: moment.id!)
        return .created(.init(body: .json(created)))
    }

    func listMomentPhotoComments(_ input: Operations.ListMomentPhotoComments.Input) async throws -> Operations.ListMomentPhotoComments.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let page = try await MomentComments(db: req.db, core: services.core).list(
            on: moment.id!, photoID: photo.id!, viewer: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await commentBodies(page.items, in: moment, viewer: user, req), nextCursor: page.nextCursor))))
    }

    func commentOnMomentPhoto(_ input: Operations.CommentOnMomentPhoto.Input) async throws -> Operations.CommentOnMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let comment = try await MomentComments(db: req.db, core: services.core).add(to: moment, photo: photo, by: user, body: body.body)
        let created = try await commentBody(comment, in: moment, viewer: user, req)
        await MomentLive(core: services.core, live: services.live).commentAdded(created, momentID: moment.id!)
        return .created(.init(body: .json(created)))
    }

    func deleteMomentComment(_ input: Operations.DeleteMomentComment.Input) async throws -> Operations.DeleteMomentComment.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let comments = MomentComments(db: req.db, core: services.core)
        let comment = try await comments.comment(try PathID.parse(input.path.commentId, "comment"), in: moment.id!, viewer: user.requireID())
        try await comments.delete(comment, in: moment, by: user.requireID())
        return .noContent(.init())
    }

    private func commentBodies(_ comments: [MomentComment], in moment: Moment, viewer: User, _ req: Request) async throws -> [Components.Schemas.MomentComment] {
        let viewerID = try viewer.requireID()
        let people = try await PeopleDirectory(db: req.db, core: services.core, mediaLibrary: services.media).peopleByID(comments.map(\.authorID), viewer: viewerID)
        return comments.compactMap { comment in
            people[comment.authorID].map { .init(comment, author: $0, canDelete: MomentComments.canDelete(comment, in: moment, by: viewerID)) }
        }
    }

    private func commentBody(_ comment: MomentComment, in moment: Moment, viewer: User, _ req: Request) async throws -> Components.Schemas.MomentComment {
        guard let body = try await commentBodies([comment], in: moment, viewer: viewer, req).first else { throw Problem.notFound("comment") }
        return body
    }
}
