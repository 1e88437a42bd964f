import Fluent
import Foundation

/// Profile pictures (social.md): the one shown is `User.avatarMediaID`; every picture a person has
/// used is a public media row owned by `avatar` and them, kept so they can pick it again, until
/// they delete it or the history passes `historyLimit` (the oldest unused ones go first).
struct AvatarService {
    static let mediaOwnerType = "avatar"
    static let historyLimit = 20

    struct History: Sendable {
        var current: Media?
        /// Newest first, the current one included.
        var pictures: [Media]
    }

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var media: MediaService { MediaService(db: db, core: core, mediaLibrary: mediaLibrary) }

    func history(of user: User) async throws -> History {
        let pictures = try await Media.query(on: db).filter(\.$ownerType == Self.mediaOwnerType)
            .filter(\.$ownerID == user.requireID()).sort(\.$attachedAt, .descending).sort(\.$id, .descending).all()
        return History(current: pictures.first { $0.id == user.avatarMediaID }, pictures: pictures)
    }

    /// Shows `mediaID` as the person's picture: an upload of theirs not attached to anything yet,
    /// or a picture of their history. It becomes public (others see it wherever the person is named).
    func use(_ mediaID: UUID, for user: User) async throws -> Media {
        let userID = try user.requireID()
        guard let picture = try await Media.find(mediaID, on: db), picture.$uploader.id == userID else {
            throw Problem.notFound("photo")
        }
        let inHistory = picture.ownerType == Self.mediaOwnerType && picture.ownerID == userID
        guard picture.ownerType == nil || inHistory else {
            throw Problem.conflict(
                "This photo is already used elsewhere (a post, an album or the closet). Upload it again to use it as your picture.",
                field: "mediaId")
        }
        let now = core.clock.now()
        try await core.writeTransaction(on: db) { tx in
            picture.ownerType = Self.mediaOwnerType
            picture.ownerID = userID
            picture.visibility = Media.Visibility.public.rawValue
            // Picking an earlier picture again moves it to the front of the history.
            picture.attachedAt = now
            try await picture.save(on: tx)
            user.avatarMediaID = picture.id
            try await user.update(on: tx)
        }
        try await trimHistory(of: user)
        return picture
    }

    /// Shows a public copy of a photo someone else may have uploaded (a moment's): the files are
    /// shared by content, the row is the person's own.
    func useCopy(of source: Media, for user: User) async throws -> Media {
        let userID = try user.requireID()
        let now = core.clock.now()
        let copy = Media()
        copy.id = .v7(at: now)
        copy.$uploader.id = userID
        copy.ownerType = Self.mediaOwnerType
        copy.ownerID = userID
        copy.visibility = Media.Visibility.public.rawValue
        copy.contentHash = source.contentHash
        copy.format = source.format
        copy.width = source.width
        copy.height = source.height
        copy.byteSize = source.byteSize
        copy.dominantColor = source.dominantColor
        copy.placeholder = source.placeholder
        copy.variantsJSON = source.variantsJSON
        copy.createdAt = now
        copy.attachedAt = now
        try await core.writeTransaction(on: db) { tx in
            try await copy.create(on: tx)
            user.avatarMediaID = copy.id
            try await user.update(on: tx)
        }
        try await trimHistory(of: user)
        return copy
    }

    /// Shows the initial again; the picture stays in the history.
    func clear(for user: User) async throws {
        guard user.avatarMediaID != nil else { return }
        user.avatarMediaID = nil
        try await user.update(on: db)
    }

    /// Deletes a picture of the history for good (the current one too: then the initial shows).
    func delete(_ mediaID: UUID, for user: User) async throws {
        let userID = try user.requireID()
        guard let picture = try await Media.find(mediaID, on: db), picture.$uploader.id == userID,
            picture.ownerType == Self.mediaOwnerType, picture.ownerID == userID
        else { throw Problem.notFound("picture") }
        if user.avatarMediaID == mediaID {
            user.avatarMediaID = nil
            try await user.update(on: db)
        }
        try await media.delete(picture)
    }

    private func trimHistory(of user: User) async throws {
        let pictures = try await history(of: user).pictures
        guard pictures.count > Self.historyLimit else { return }
        for old in pictures.dropFirst(Self.historyLimit) where old.id != user.avatarMediaID {
            try await media.delete(old)
        }
    }
}
