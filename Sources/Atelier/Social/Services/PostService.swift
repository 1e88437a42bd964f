import Fluent
import Foundation
import SQLKit

/// Outfit-of-the-day posts: one a day per author (the day ends at midnight in the author's zone),
/// visible to the author and their friends, unless hidden by moderation (then to the author only).
struct PostService {
    static let maxCaption = 500

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }

    /// Posts the photo `mediaID` (an unused upload of the author's) with a caption. A second post
    /// the same day is a 409 saying when posting opens again.
    func create(by author: User, mediaID: UUID, caption rawCaption: String?) async throws -> Post {
        let authorID = try author.requireID()
        let caption = try Self.validCaption(rawCaption ?? "")
        guard let media = try await Media.find(mediaID, on: db), media.$uploader.id == authorID else {
            throw Problem.notFound("media")
        }
        guard media.ownerType == nil else { throw Problem.invalid("mediaId", "is already used; upload the photo again") }
        guard media.visibility == Media.Visibility.private.rawValue else {
            // A public upload already went out with a permanent, cacheable URL.
            throw Problem.invalid("mediaId", "was uploaded as public; upload the photo with visibility=private")
        }
        let now = self.now
        let zone = LocalDay.zone(author.timeZone)
        let day = LocalDay(now, in: zone)
        let post = Post()
        post.id = .v7(at: now)
        post.authorID = authorID
        post.mediaID = mediaID
        post.caption = caption
        post.day = day.description
        post.timeZone = zone.identifier
        post.createdAt = now
        do {
            try await core.writeTransaction(on: db) { tx in
                // Days only move forward: after a change of time zone the latest post's day may be
                // today or even "tomorrow" here, and then posting opens after that day.
                if let latest = try await Post.query(on: tx).filter(\.$authorID == authorID).sort(\.$day, .descending).first(),
                    let latestDay = LocalDay(latest.day), latestDay >= day {
                    throw Self.alreadyPosted(day: latestDay, zone: zone, now: now)
                }
                try await post.create(on: tx)
                media.visibility = Media.Visibility.private.rawValue
                try await MediaService(db: tx, core: core, mediaLibrary: mediaLibrary).attach(media, ownerType: Post.mediaOwnerType, ownerID: post.id!)
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Two posts racing for the same day: the unique (author, day) index let one through.
            throw Self.alreadyPosted(day: day, zone: zone, now: now)
        }
        return post
    }

    /// The post if `viewerID` may see it: its author always; the author's friends unless it is
    /// hidden or the author is suspended. Anyone else gets a 404, as for a post that does not exist.
    func visiblePost(_ id: UUID, to viewerID: UUID) async throws -> Post {
        guard let post = try await Post.find(id, on: db) else { throw Problem.notFound("post") }
        if post.authorID == viewerID { return post }
        let graph = SocialGraph(db: db)
        guard post.hiddenAt == nil, try await graph.areFriends(viewerID, post.authorID),
            try await !graph.blockedEitherWay(viewerID, post.authorID),
            let author = try await User.find(post.authorID, on: db), author.suspendedAt == nil
        else { throw Problem.notFound("post") }
        return post
    }

    func ownPost(_ id: UUID, of userID: UUID) async throws -> Post {
        let post = try await visiblePost(id, to: userID)
        guard post.authorID == userID else {
            throw Problem(.forbidden, detail: "Only its author may change or delete a post.")
        }
        return post
    }

    func updateCaption(_ post: Post, to caption: String) async throws -> Post {
        post.caption = try Self.validCaption(caption)
        post.editedAt = now
        try await post.update(on: db)
        return post
    }

    /// Deletes the post with its reactions, comments and photo.
    func delete(_ post: Post) async throws {
        let media = try await Media.find(post.mediaID, on: db)
        try await core.writeTransaction(on: db) { tx in try await post.delete(on: tx) }
        if let media { try await MediaService(db: db, core: core, mediaLibrary: mediaLibrary).delete(media) }
    }

    static func validCaption(_ raw: String) throws -> String {
        let caption = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        try PlainText.requireNoNUL(caption, field: "caption")
        guard caption.count <= maxCaption else {
            throw Problem.invalid("caption", "may be at most \(maxCaption) characters (this one has \(caption.count))")
        }
        return caption
    }

    static func alreadyPosted(day: LocalDay, zone: TimeZone, now: Date) -> Problem {
        let opens = day.end(in: zone)
        let seconds = max(1, Int(opens.timeIntervalSince(now).rounded(.up)))
        let iso = ISO8601DateFormatter().string(from: opens)
        let wait = seconds >= 3600 ? "\(seconds / 3600) h \(seconds % 3600 / 60) min" : "\(max(1, seconds / 60)) min"
        return Problem(
            .conflict, type: "https://atelier.dev/problems/already-posted-today", title: "Already posted today",
            detail: "You have posted your outfit for \(day) already. Posting opens again at midnight in \(zone.identifier), \(iso) (in \(wait)).",
            headers: [("Retry-After", String(seconds))])
    }
}
