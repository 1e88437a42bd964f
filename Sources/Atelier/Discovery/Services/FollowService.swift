import Fluent
import Foundation
import SQLKit

/// Follows of stores and brands. As with likes, the follow row and the target's follower counter
/// change together and only when the row really changed, so follower counts stay exact.
struct FollowService {
    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    /// Follows a store or brand (a no-op when already following). Returns its follower count.
    @discardableResult
    func follow(_ target: Follow.Target, _ targetID: UUID, by user: User) async throws -> Int {
        let userID = try user.requireID()
        return try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: Follow.schema) (id, user_id, target_type, target_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: userID), \(bind: target.rawValue), \(bind: targetID), \(bind: now))
                ON CONFLICT (user_id, target_type, target_id) DO NOTHING RETURNING id
                """).all()
            if !inserted.isEmpty { try await bump(target, targetID, by: 1, on: sql) }
            return try await followerCount(target, targetID, on: sql)
        }
    }

    /// Stops following (a no-op when not following). Returns the follower count afterwards.
    @discardableResult
    func unfollow(_ target: Follow.Target, _ targetID: UUID, by user: User) async throws -> Int {
        let userID = try user.requireID()
        return try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            let deleted = try await sql.raw("""
                DELETE FROM \(ident: Follow.schema)
                WHERE user_id = \(bind: userID) AND target_type = \(bind: target.rawValue) AND target_id = \(bind: targetID)
                RETURNING id
                """).all()
            if !deleted.isEmpty { try await bump(target, targetID, by: -1, on: sql) }
            return try await followerCount(target, targetID, on: sql)
        }
    }

    /// The ids the user follows of one kind.
    func followedIDs(_ target: Follow.Target, by userID: UUID) async throws -> [UUID] {
        try await Follow.query(on: db).filter(\.$userID == userID).filter(\.$targetType == target.rawValue).all().map(\.targetID)
    }

    /// The stores and brands the user follows, most recently followed first.
    func following(_ user: User) async throws -> (stores: [Store], brands: [Brand]) {
        let follows = try await Follow.query(on: db).filter(\.$userID == user.requireID()).sort(\.$id, .descending).all()
        let storeIDs = follows.filter { $0.targetType == Follow.Target.store.rawValue }.map(\.targetID)
        let brandIDs = follows.filter { $0.targetType == Follow.Target.brand.rawValue }.map(\.targetID)
        let stores = try await Store.query(on: db).filter(\.$id ~~ storeIDs).filter(\.$status == Store.Status.active.rawValue).all()
        let brands = try await Brand.query(on: db).filter(\.$id ~~ brandIDs).all()
        return (storeIDs.compactMap { id in stores.first { $0.id == id } }, brandIDs.compactMap { id in brands.first { $0.id == id } })
    }

    private func bump(_ target: Follow.Target, _ targetID: UUID, by delta: Int, on sql: any SQLDatabase) async throws {
        let table = target == .store ? Store.schema : Brand.schema
        try await sql.raw("""
            UPDATE \(ident: table) SET follower_count = follower_count + \(bind: delta) WHERE id = \(bind: targetID)
            """).run()
        if target == .store {
            try await StoreStatsService.bump(storeID: targetID, day: StatsDay.string(now), follows: delta, on: sql)
        }
    }

    private func followerCount(_ target: Follow.Target, _ targetID: UUID, on sql: any SQLDatabase) async throws -> Int {
        let table = target == .store ? Store.schema : Brand.schema
        let row = try await sql.raw("SELECT follower_count FROM \(ident: table) WHERE id = \(bind: targetID)").first()
        return try row?.decode(column: "follower_count", as: Int.self) ?? 0
    }
}
