import Fluent
import Foundation

/// The album: adding photos (by the posting rule), reading them, deleting them (author or
/// creator), choosing the cover, and taking one as one's avatar.
struct MomentPhotoService {
    static let maxCaption = 500

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    func post(_ mediaID: UUID, caption raw: String?, to moment: Moment, member: MomentMember?, by author: User) async throws -> MomentPhoto {
        let authorID = try author.requireID()
        let momentID = try moment.requireID()
        let now = self.now
        if let refusal = PhotoPostingRule.refusal(
            isCreator: moment.creatorID == authorID, state: member?.memberState, status: moment.status(at: now)) {
            throw Problem(.forbidden, type: "https://atelier.dev/problems/may-not-post-photo", title: "Cannot add photos", detail: refusal)
        }
        let caption = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        try PlainText.requireNoNUL(caption, field: "caption")
        guard caption.count <= Self.maxCaption else {
            throw Problem.invalid("caption", "may be at most \(Self.maxCaption) characters (this one has \(caption.count))")
        }
        guard let media = try await Media.find(mediaID, on: db), media.$uploader.id == authorID else { throw Problem.notFound("media") }
        guard media.ownerType == nil else { throw Problem.invalid("mediaId", "is already used; upload the photo again") }
        guard media.visibility == Media.Visibility.private.rawValue else {
            throw Problem.invalid("mediaId", "was uploaded as public; upload the photo with visibility=private")
        }
        let photo = MomentPhoto()
        photo.id = .v7(at: now)
        photo.momentID = momentID
        photo.authorID = authorID
        photo.mediaID = mediaID
        photo.caption = caption
        photo.createdAt = now
        let momentPath = momentID.idString
        let photoPath = photo.id!.idString
        let message = NotificationMessage.momentPhoto(actor: author.displayName, moment: moment.name)
        let told = try await core.writeTransaction(on: db) { tx -> [UUID] in
            try await photo.create(on: tx)
            try await MediaService(db: tx, core: core, mediaLibrary: mediaLibrary).attach(media, ownerType: MomentPhoto.mediaOwnerType, ownerID: photo.id!)
            // Members who joined hear of new photos; one unread notice per moment and author at a time.
            let members = try await MomentMember.query(on: tx).filter(\.$momentID == momentID)
                .filter(\.$state ~~ [MomentMember.State.joined.rawValue, MomentMember.State.checkedIn.rawValue]).all(\.$userID)
            let link = "atelier://moments/\(momentPath)"
            let alreadyTold = Set(try await InboxEntry.query(on: tx).filter(\.$recipientID ~~ members)
                .filter(\.$kind == InboxEntry.Kind.momentPhoto.rawValue).filter(\.$actorID == authorID)
                .filter(\.$link == link).filter(\.$readAt == nil).all(\.$recipientID))
            let recipients = members.filter { !alreadyTold.contains($0) }
            for recipient in recipients {
                try await InboxService.record(.init(
                    recipientID: recipient, kind: .momentPhoto, actorID: authorID, message: message, link: link,
                    webPath: "/moments/\(momentPath)/photos/\(photoPath)"), on: tx, now: now)
            }
            return recipients
        }
        for recipient in told { await InboxService.announce(.momentPhoto, to: recipient, by: authorID, live: live) }
        return photo
    }

    /// The photo, unless its author and the viewer blocked each other (then, as for the rest of
    /// the album, it is not there for them).
    func photo(_ id: UUID, in moment: Moment, viewer: UUID) async throws -> MomentPhoto {
        guard let photo = try await MomentPhoto.query(on: db).filter(\.$id == id).filter(\.$momentID == moment.requireID()).first()
        else { throw Problem.notFound("photo") }
        if photo.authorID != viewer, try await SocialGraph(db: db).blockedEitherWay(viewer, photo.authorID) { throw Problem.notFound("photo") }
        return photo
    }

    /// Newest first, after the cursor; photos of people blocked either way left out.
    func list(in moment: Moment, viewer: UUID, page: PageRequest) async throws -> Page<MomentPhoto> {
        let query = MomentPhoto.query(on: db).filter(\.$momentID == (try moment.requireID()))
        let hidden = try await SocialGraph(db: db).blockedPeople(of: viewer)
        if !hidden.isEmpty { query.filter(\.$authorID !~ Array(hidden)) }
        let rows = try await query.newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    static func canDelete(_ photo: MomentPhoto, in moment: Moment, by userID: UUID) -> Bool {
        photo.authorID == userID || moment.creatorID == userID
    }

    func delete(_ photo: MomentPhoto, in moment: Moment, by userID: UUID) async throws {
        guard Self.canDelete(photo, in: moment, by: userID) else {
            throw Problem(.forbidden, detail: "Only the photo's author or the moment's creator may delete it.")
        }
        let photoID = try photo.requireID()
        let media = try await Media.find(photo.mediaID, on: db)
        try await core.writeTransaction(on: db) { tx in
            try await MomentFave.query(on: tx).filter(\.$targetID == photoID).delete()
            if moment.coverPhotoID == photoID {
                moment.coverPhotoID = nil
                try await moment.update(on: tx)
            }
            try await photo.delete(on: tx)
        }
        if let media { try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).delete(media) }
    }

    func setCover(_ photo: MomentPhoto, of moment: Moment) async throws {
        moment.coverPhotoID = try photo.requireID()
        moment.updatedAt = now
        try await moment.update(on: db)
    }

    /// The cover of each moment: the chosen photo, or else the first one posted.
    func covers(of moments: [Moment]) async throws -> [UUID: MomentPhoto] {
        guard !moments.isEmpty else { return [:] }
        var covers: [UUID: MomentPhoto] = [:]
        let chosen = moments.compactMap(\.coverPhotoID)
        if !chosen.isEmpty {
            for photo in try await MomentPhoto.query(on: db).filter(\.$id ~~ chosen).all() { covers[photo.momentID] = photo }
        }
        for moment in moments where covers[moment.id!] == nil {
            if let first = try await MomentPhoto.query(on: db).filter(\.$momentID == moment.id!).sort(\.$id, .ascending).first() {
                covers[moment.id!] = first
            }
        }
        return covers
    }

    /// Makes a public copy of the photo's image the caller's avatar (files are shared by content);
    /// the picture before it stays in their history.
    func useAsAvatar(_ photo: MomentPhoto, for user: User) async throws -> Media {
        guard let source = try await Media.find(photo.mediaID, on: db) else { throw Problem.notFound("photo") }
        return try await AvatarService(db: db, core: core, mediaLibrary: mediaLibrary).useCopy(of: source, for: user)
    }

    /// A short-lived URL of the photo's original file.
    func originalURL(_ photo: MomentPhoto) async throws -> (url: String, expiresAt: Date) {
        guard let media = try await Media.find(photo.mediaID, on: db) else { throw Problem.notFound("photo") }
        let now = self.now
        return (mediaLibrary.signer.privateURL(key: media.originalKey, now: now), now.addingTimeInterval(MediaURLSigner.lifetime))
    }
}
