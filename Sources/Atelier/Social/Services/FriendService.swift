import Fluent
import Foundation
import SQLKit

/// Friend requests and friendships. A request to someone who already asked you makes you friends.
/// Every change and its inbox entry commit in one transaction.
struct FriendService {
    enum RequestOutcome: Sendable { case requested, friends }

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }
    private var graph: SocialGraph { SocialGraph(db: db) }

    func sendRequest(from sender: User, to recipientID: UUID) async throws -> RequestOutcome {
        let senderID = try sender.requireID()
        guard recipientID != senderID else { throw Problem.invalid("userId", "is you; ask someone else") }
        _ = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).visibleUser(recipientID, to: senderID)
        if try await graph.hasBlocked(senderID, recipientID) {
            throw Problem.conflict("You blocked this person. Unblock them first.", field: "userId")
        }
        if try await graph.areFriends(senderID, recipientID) {
            throw Problem.conflict("You are friends already.", field: "userId")
        }
        let now = self.now
        let state = try await core.writeTransaction(on: db) { tx -> RequestOutcome in
            let sql = tx.sql
            // Two people asking each other at once: on PostgreSQL both would miss the other's
            // request, so requests between the same two people take turns (SQLite writers already do).
            if sql.dialect.name == "postgresql" {
                let pair = [senderID, recipientID].map { $0.idString }.sorted().joined(separator: "|")
                try await sql.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: pair)))").run()
            }
            // Checked again inside: a block may have landed since the checks above.
            guard try await !SocialGraph(db: tx).blockedEitherWay(senderID, recipientID) else { throw Problem.notFound("user") }
            let theirs = try await FriendRequest.query(on: tx).filter(\.$fromID == recipientID).filter(\.$toID == senderID).first()
            if theirs != nil {
                try await Self.befriend(senderID, recipientID, on: tx, now: now)
                try await InboxService.record(Self.accepted(by: sender, notifying: recipientID), on: tx, now: now)
                return .friends
            }
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: FriendRequest.schema) (id, from_id, to_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: senderID), \(bind: recipientID), \(bind: now))
                ON CONFLICT (from_id, to_id) DO NOTHING RETURNING id
                """).all()
            if !inserted.isEmpty {
                try await InboxService.record(.init(
                    recipientID: recipientID, kind: .friendRequest, actorID: senderID,
                    message: .friendRequest(actor: sender.displayName),
                    link: "atelier://friends/requests", webPath: "/friends"), on: tx, now: now)
            }
            return .requested
        }
        await InboxService.announce(state == .friends ? .friendAccepted : .friendRequest, to: recipientID, by: senderID, live: live)
        return state
    }

    func cancelRequest(from senderID: UUID, to recipientID: UUID) async throws {
        let removed = try await deleteRequests(from: senderID, to: recipientID, on: db)
        guard removed > 0 else { throw Problem.notFound("friend request") }
    }

    func accept(from senderID: UUID, by recipient: User) async throws {
        let recipientID = try recipient.requireID()
        let now = self.now
        try await core.writeTransaction(on: db) { tx in
            guard try await deleteRequests(from: senderID, to: recipientID, on: tx) > 0,
                try await !SocialGraph(db: tx).blockedEitherWay(senderID, recipientID)
            else { throw Problem.notFound("friend request") }
            try await Self.befriend(senderID, recipientID, on: tx, now: now)
            try await InboxService.record(Self.accepted(by: recipient, notifying: senderID), on: tx, now: now)
        }
        await InboxService.announce(.friendAccepted, to: senderID, by: recipientID, live: live)
    }

    func decline(from senderID: UUID, by recipientID: UUID) async throws {
        guard try await deleteRequests(from: senderID, to: recipientID, on: db) > 0 else { throw Problem.notFound("friend request") }
    }

    func remove(_ friendID: UUID, of userID: UUID) async throws {
        let removed = try await core.writeTransaction(on: db) { tx in
            try await Self.unfriend(userID, friendID, on: tx)
        }
        guard removed else { throw Problem.notFound("friend") }
    }

    func friends(of userID: UUID, page: PageRequest) async throws -> Page<UUID> {
        let rows = try await Friendship.query(on: db).filter(\.$userID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }.map(\.friendID)
    }

    /// Friends of both; nobody the viewer may not see is asked about (`visibleUser` first).
    func commonFriends(of viewerID: UUID, and otherID: UUID, page: PageRequest) async throws -> Page<UUID> {
        let theirs = try await graph.friendIDs(of: otherID)
        guard !theirs.isEmpty else { return Page(fetched: [], limit: page.limit) { _ in PageCursor(id: UUID()) } }
        let rows = try await Friendship.query(on: db).filter(\.$userID == viewerID).filter(\.$friendID ~~ theirs)
            .newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }.map(\.friendID)
    }

    func incoming(to userID: UUID, page: PageRequest) async throws -> Page<FriendRequest> {
        let rows = try await FriendRequest.query(on: db).filter(\.$toID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    func outgoing(from userID: UUID, page: PageRequest) async throws -> Page<FriendRequest> {
        let rows = try await FriendRequest.query(on: db).filter(\.$fromID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    // MARK: Shared with blocking

    /// Both rows of a friendship, and no request left either way. Friends are connected too.
    static func befriend(_ a: UUID, _ b: UUID, on tx: any Database, now: Date) async throws {
        try await ConnectionService.connect(a, b, on: tx, now: now)
        let sql = tx.sql
        try await FriendRequest.query(on: tx).group(.or) { either in
            either.group(.and) { $0.filter(\.$fromID == a).filter(\.$toID == b) }
            either.group(.and) { $0.filter(\.$fromID == b).filter(\.$toID == a) }
        }.delete()
        for (user, friend) in [(a, b), (b, a)] {
            try await sql.raw("""
                INSERT INTO \(ident: Friendship.schema) (id, user_id, friend_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: user), \(bind: friend), \(bind: now))
                ON CONFLICT (user_id, friend_id) DO NOTHING
                """).run()
        }
    }

    /// Ends a friendship (both rows); true when there was one.
    @discardableResult
    static func unfriend(_ a: UUID, _ b: UUID, on tx: any Database) async throws -> Bool {
        let sql = tx.sql
        let removed = try await sql.raw("""
            DELETE FROM \(ident: Friendship.schema)
            WHERE (user_id = \(bind: a) AND friend_id = \(bind: b)) OR (user_id = \(bind: b) AND friend_id = \(bind: a))
            RETURNING id
            """).all()
        return !removed.isEmpty
    }

    private func deleteRequests(from senderID: UUID, to recipientID: UUID, on db: any Database) async throws -> Int {
        let sql = db.sql
        return try await sql.raw("""
            DELETE FROM \(ident: FriendRequest.schema) WHERE from_id = \(bind: senderID) AND to_id = \(bind: recipientID) RETURNING id
            """).all().count
    }

    private static func accepted(by accepter: User, notifying userID: UUID) -> InboxService.Draft {
        .init(recipientID: userID, kind: .friendAccepted, actorID: accepter.id,
              message: .friendAccepted(actor: accepter.displayName),
              link: "atelier://users/\(accepter.id!.idString)",
              webPath: "/people/\(accepter.id!.idString)")
    }
}
