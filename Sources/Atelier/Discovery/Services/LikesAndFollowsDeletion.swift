import Fluent
import Foundation
import SQLKit

/// Discovery's part of an account's deletion (`AccountDeletion`): the likes and follows go, and the
/// counters they counted come down with them; the catalogue's caches are cleared after the commit.
enum LikesAndFollowsDeletion {
    static func register(in parts: AccountParts, catalogChanges: CatalogChanges) {
        parts.onDeletion { userID, tx, _ in
            try await removeLikesAndFollows(of: userID, on: tx.sql)
            return .init(afterCommit: { _ in await catalogChanges.announce() })
        }
    }

    /// Deletes the like and follow rows and brings each counter down by the rows it counted.
    private static func removeLikesAndFollows(of userID: UUID, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE \(ident: Product.schema) SET like_count = like_count - 1
            WHERE id IN (SELECT product_id FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: userID))
            """).run()
        try await sql.raw("DELETE FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: userID)").run()
        for (target, table) in [(Follow.Target.store, Store.schema), (.brand, Brand.schema)] {
            try await sql.raw("""
                UPDATE \(ident: table) SET follower_count = follower_count - 1
                WHERE id IN (SELECT target_id FROM \(ident: Follow.schema)
                             WHERE user_id = \(bind: userID) AND target_type = \(bind: target.rawValue))
                """).run()
        }
        try await sql.raw("DELETE FROM \(ident: Follow.schema) WHERE user_id = \(bind: userID)").run()
    }
}
