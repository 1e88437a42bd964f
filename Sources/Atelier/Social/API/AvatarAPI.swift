import AtelierServerAPI
import Foundation
import Vapor

/// `/me/avatar…`: the caller's profile picture and its history.
extension APIHandler {
    func getMyAvatars(_ input: Operations.GetMyAvatars.Input) async throws -> Operations.GetMyAvatars.Output {
        let (req, user) = try await socialCaller()
        let history = try await AvatarService(db: req.db, core: services.core, mediaLibrary: services.media).history(of: user)
        let media = MediaService(db: req.db, core: services.core, mediaLibrary: services.media)
        return .ok(.init(body: .json(.init(
            current: history.current.map { .init($0, service: media) },
            history: history.pictures.map { .init($0, service: media) }))))
    }

    func setMyAvatar(_ input: Operations.SetMyAvatar.Input) async throws -> Operations.SetMyAvatar.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        guard let mediaID = UUID(text: body.mediaId) else { throw Problem.invalid("mediaId", "must be the id of an uploaded photo") }
        let picture = try await AvatarService(db: req.db, core: services.core, mediaLibrary: services.media).use(mediaID, for: user)
        return .ok(.init(body: .json(.init(picture, service: MediaService(db: req.db, core: services.core, mediaLibrary: services.media)))))
    }

    func removeMyAvatar(_ input: Operations.RemoveMyAvatar.Input) async throws -> Operations.RemoveMyAvatar.Output {
        let (req, user) = try await socialCaller()
        try await AvatarService(db: req.db, core: services.core, mediaLibrary: services.media).clear(for: user)
        return .noContent(.init())
    }

    func deleteAvatarFromHistory(_ input: Operations.DeleteAvatarFromHistory.Input) async throws -> Operations.DeleteAvatarFromHistory.Output {
        let (req, user) = try await socialCaller()
        guard let mediaID = UUID(text: input.path.mediaId) else { throw Problem.notFound("picture") }
        try await AvatarService(db: req.db, core: services.core, mediaLibrary: services.media).delete(mediaID, for: user)
        return .noContent(.init())
    }
}
