import AtelierServerAPI
import Foundation
import OpenAPIRuntime
import Vapor

/// `/moments/{id}/photos…` and `/moments/{id}/album.zip`: the shared album.
extension APIHandler {
    func postMomentPhoto(_ input: Operations.PostMomentPhoto.Input) async throws -> Operations.PostMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        guard let mediaID = UUID(uuidString: body.mediaId) else { throw Problem.invalid("mediaId", "is not an id") }
        let (moment, member) = try await visibleMoment(input.path.momentId, to: user, req)
        let photo = try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .post(mediaID, caption: body.caption, to: moment, member: member, by: user)
        let created = try await photoBody(photo, in: moment, viewer: user, req)
        await MomentLive(core: services.core, live: services.live).photoAdded(created, momentID: moment.id!)
        return .created(.init(body: .json(created)))
    }

    func listMomentPhotos(_ input: Operations.ListMomentPhotos.Input) async throws -> Operations.ListMomentPhotos.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let page = try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media)
            .list(in: moment, viewer: user.requireID(), page: PageRequest(limit: input.query.limit, cursor: input.query.cursor))
        return .ok(.init(body: .json(.init(items: try await photoBodies(page.items, in: moment, viewer: user, req), nextCursor: page.nextCursor))))
    }

    func getMomentPhoto(_ input: Operations.GetMomentPhoto.Input) async throws -> Operations.GetMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        return .ok(.init(body: .json(try await photoBody(photo, in: moment, viewer: user, req))))
    }

    func deleteMomentPhoto(_ input: Operations.DeleteMomentPhoto.Input) async throws -> Operations.DeleteMomentPhoto.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).delete(photo, in: moment, by: user.requireID())
        await MomentLive(core: services.core, live: services.live).photoDeleted(photo.id!, momentID: moment.id!)
        return .noContent(.init())
    }

    func getMomentPhotoOriginal(_ input: Operations.GetMomentPhotoOriginal.Input) async throws -> Operations.GetMomentPhotoOriginal.Output {
        let (req, user) = try await socialCaller()
        let (_, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let signed = try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).originalURL(photo)
        return .ok(.init(body: .json(.init(url: signed.url, expiresAt: signed.expiresAt))))
    }

    func setMomentCover(_ input: Operations.SetMomentCover.Input) async throws -> Operations.SetMomentCover.Output {
        let (req, user) = try await socialCaller()
        let (moment, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        guard moment.creatorID == user.id else { throw Problem(.forbidden, detail: "Only the moment's creator may choose its cover.") }
        try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).setCover(photo, of: moment)
        return .ok(.init(body: .json(try await momentBody(moment, viewer: user, req))))
    }

    func useMomentPhotoAsAvatar(_ input: Operations.UseMomentPhotoAsAvatar.Input) async throws -> Operations.UseMomentPhotoAsAvatar.Output {
        let (req, user) = try await socialCaller()
        let (_, photo) = try await visiblePhoto(input.path.momentId, input.path.photoId, user, req)
        let service = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        let avatar = try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).useAsAvatar(photo, for: user)
        return .ok(.init(body: .json(.init(avatar, service: service))))
    }

    func downloadMomentAlbum(_ input: Operations.DownloadMomentAlbum.Input) async throws -> Operations.DownloadMomentAlbum.Output {
        let (req, user) = try await socialCaller()
        let (moment, _) = try await visibleMoment(input.path.momentId, to: user, req)
        let bytes = try await AlbumArchive(db: req.db, core: services.core, mediaLibrary: services.media).stream(moment, viewer: user.requireID())
        return .ok(.init(
            headers: .init(contentDisposition: ContentDisposition.attachment(fileName: AlbumArchive.fileName(for: moment))),
            body: .applicationZip(HTTPBody(bytes, length: .unknown, iterationBehavior: .single))))
    }

    // MARK: Shared

    func visiblePhoto(_ rawMoment: String, _ rawPhoto: String, _ user: User, _ req: Request) async throws -> (Moment, MomentPhoto) {
        let (moment, _) = try await visibleMoment(rawMoment, to: user, req)
        let photo = try await MomentPhotoService(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).photo(try PathID.parse(rawPhoto, "photo"), in: moment, viewer: user.requireID())
        return (moment, photo)
    }

    func photoBodies(_ photos: [MomentPhoto], in moment: Moment, viewer: User, _ req: Request) async throws -> [Components.Schemas.MomentPhoto] {
        let views = try await MomentViews(db: req.db, core: services.core, live: services.live, mediaLibrary: services.media).photoViews(photos, in: moment, viewer: viewer.requireID())
        let media = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        return views.map { Components.Schemas.MomentPhoto($0, media: media) }
    }

    func photoBody(_ photo: MomentPhoto, in moment: Moment, viewer: User, _ req: Request) async throws -> Components.Schemas.MomentPhoto {
        guard let body = try await photoBodies([photo], in: moment, viewer: viewer, req).first else { throw Problem.notFound("photo") }
        return body
    }
}
