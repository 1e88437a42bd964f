import AtelierAPI
import Foundation
import OpenAPIRuntime

/// A square of a photo, in the photo's own upright pixels, that becomes the profile picture.
public struct PictureCrop: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var side: Int

    public init(x: Int, y: Int, side: Int) {
        self.x = x
        self.y = y
        self.side = side
    }

    var query: String { "\(x),\(y),\(side),\(side)" }
}

/// The signed-in person's profile picture: upload one with the square they chose, pick an earlier
/// one again, take a moment's photo, show the initial instead, or delete one for good. Every call
/// throws `AtelierError.rejected` with the server's reason (too large, not an image, …).
public struct ProfilePictures: Sendable {
    public struct History: Sendable {
        /// Nil while the initial shows.
        public var current: Components.Schemas.Image?
        /// Newest first, the current one included.
        public var pictures: [Components.Schemas.Image]
    }

    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// Uploads `image` (cropped to `crop` on the server) and shows it. The upload and the choice
    /// are two requests; a failed choice leaves an unused upload, which the server removes within a day.
    public func upload(_ image: Data, crop: PictureCrop? = nil) async throws -> Components.Schemas.Image {
        let output = try await session.client.uploadMedia(query: .init(visibility: ._public, crop: crop?.query), body: UploadBody.image(image))
        let mediaID: String
        switch output {
        case .created(let created): mediaID = try created.body.json.id
        case .unauthorized: throw AtelierError.signedOut
        case .tooManyRequests(let r): throw AtelierError.rateLimited(retryAfter: r.headers.retryAfter.map { .seconds($0) })
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .contentTooLarge(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 413)
        case .unsupportedMediaType(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 415)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("uploadMedia: \(output)")
        }
        return try await use(mediaID)
    }

    /// Shows an upload of the caller's, or a picture of their history, again.
    public func use(_ mediaID: String) async throws -> Components.Schemas.Image {
        let output = try await session.client.setMyAvatar(body: .json(.init(mediaId: mediaID)))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        default: throw AtelierError.unexpectedResponse("setMyAvatar: \(output)")
        }
    }

    /// A public copy of a moment's photo becomes the picture; the one before stays in the history.
    public func useMomentPhoto(momentID: String, photoID: String) async throws -> Components.Schemas.Image {
        let output = try await session.client.useMomentPhotoAsAvatar(path: .init(momentId: momentID, photoId: photoID))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        default: throw AtelierError.unexpectedResponse("useMomentPhotoAsAvatar: \(output)")
        }
    }

    public func history() async throws -> History {
        let output = try await session.client.getMyAvatars()
        switch output {
        case .ok(let ok):
            let body = try ok.body.json
            return History(current: body.current, pictures: body.history)
        case .unauthorized: throw AtelierError.signedOut
        default: throw AtelierError.unexpectedResponse("getMyAvatars: \(output)")
        }
    }

    /// Shows the initial again; the picture stays in the history.
    public func remove() async throws {
        let output = try await session.client.removeMyAvatar()
        switch output {
        case .noContent: return
        case .unauthorized: throw AtelierError.signedOut
        default: throw AtelierError.unexpectedResponse("removeMyAvatar: \(output)")
        }
    }

    /// Deletes a picture of the history for good.
    public func delete(_ mediaID: String) async throws {
        let output = try await session.client.deleteAvatarFromHistory(path: .init(mediaId: mediaID))
        switch output {
        case .noContent: return
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        default: throw AtelierError.unexpectedResponse("deleteAvatarFromHistory: \(output)")
        }
    }
}
