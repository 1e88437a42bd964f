import Fluent
import Foundation
import SQLKit

/// Connections (social.md): made at a moment (Moments checks that the two were there together) or
/// by befriending; ended by either person, or by a block.
struct ConnectionService {
    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    /// Connects `user` and `otherID` after the caller's own check of how they met. Connecting
    /// again changes nothing.
    func connect(_ otherID: UUID, with user: User) async throws {
        let userID = try user.requireID()
        guard otherID != userID else { throw Problem.invalid("userId", "is you; connect with someone else") }
        _ = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).visibleUser(otherID, to: userID)
        let now = core.clock.now()
        try await core.writeTransaction(on: db) { tx in
            // Checked again inside: a block may have landed since.
            guard try await !SocialGraph(db: tx).blockedEitherWay(userID, otherID) else { throw Problem.notFound("user") }
            try await Self.connect(userID, otherID, on: tx, now: now)
        }
    }

    /// Ends the connection (both rows). A friendship stays a friendship: unfriend first.
    func disconnect(_ otherID: UUID, from userID: UUID) async throws {
        if try await SocialGraph(db: db).areFriends(userID, otherID) {
            throw Problem.conflict("You are friends; remove the friend to end the connection.", field: "userId")
        }
        let removed = try await core.writeTransaction(on: db) { tx in try await Self.disconnect(userID, otherID, on: tx) }
        guard removed else { throw Problem.notFound("connection") }
    }

    /// The people `userID` is connected with, friends included, most recent first.
    func connections(of userID: UUID, page: PageRequest) async throws -> Page<UUID> {
        let rows = try await UserConnection.query(on: db).filter(\.$userID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }.map(\.otherID)
    }

    // MARK: Shared with friendships and blocking

    /// Both rows of a connection.
    static func connect(_ a: UUID, _ b: UUID, on tx: any Database, now: Date) async throws {
        let sql = tx.sql
        for (user, other) in [(a, b), (b, a)] {
            try await sql.raw("""
                INSERT INTO \(ident: UserConnection.schema) (id, user_id, other_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: user), \(bind: other), \(bind: now))
                ON CONFLICT (user_id, other_id) DO NOTHING
                """).run()
        }
    }

    /// Ends a connection (both rows); true when there was one.
    @discardableResult
    static func disconnect(_ a: UUID, _ b: UUID, on tx: any Database) async throws -> Bool {
        let sql = tx.sql
        let removed = try await sql.raw("""
            DELETE FROM \(ident: UserConnection.schema)
            WHERE (user_id = \(bind: a) AND other_id = \(bind: b)) OR (user_id = \(bind: b) AND other_id = \(bind: a))
            RETURNING id
            """).all()
        return !removed.isEmpty
    }
}
