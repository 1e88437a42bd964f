import Fluent
import Foundation
import SQLKit

/// Blocking: the two stop seeing each other, their friendship, connection and requests end. Unblocking
/// restores visibility, not the friendship.
struct BlockService {
    let db: any Database
    let core: CoreServices

    func block(_ otherID: UUID, by user: User) async throws {
        let userID = try user.requireID()
        guard otherID != userID else { throw Problem.invalid("userId", "is you") }
        guard try await User.find(otherID, on: db) != nil else { throw Problem.notFound("user") }
        let now = core.clock.now()
        try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            try await sql.raw("""
                INSERT INTO \(ident: UserBlock.schema) (id, blocker_id, blocked_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: userID), \(bind: otherID), \(bind: now))
                ON CONFLICT (blocker_id, blocked_id) DO NOTHING
                """).run()
            // Requests first: an acceptance racing this block then finds no request to accept.
            try await FriendRequest.query(on: tx).group(.or) { either in
                either.group(.and) { $0.filter(\.$fromID == userID).filter(\.$toID == otherID) }
                either.group(.and) { $0.filter(\.$fromID == otherID).filter(\.$toID == userID) }
            }.delete()
            try await FriendService.unfriend(userID, otherID, on: tx)
            try await ConnectionService.disconnect(userID, otherID, on: tx)
        }
    }

    func unblock(_ otherID: UUID, by userID: UUID) async throws {
        guard try await User.find(otherID, on: db) != nil else { throw Problem.notFound("user") }
        try await UserBlock.query(on: db).filter(\.$blockerID == userID).filter(\.$blockedID == otherID).delete()
    }

    func blocked(by userID: UUID, page: PageRequest) async throws -> Page<UUID> {
        let rows = try await UserBlock.query(on: db).filter(\.$blockerID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }.map(\.blockedID)
    }
}
