import Foundation
import SQLKit

/// The statements of one like batch (`LikeGroupCommit`), at most four whatever the batch's size:
/// the like rows that appear, those that go away, and each product's counter moved by what really
/// changed (so `like_count` stays the number of like rows). Written once for both ways a batch runs:
/// through Fluent's transaction, or in one trip on `SQLiteWriter`'s connection. The changes' pairs
/// are distinct (`LikeGroupCommit.batch`), so the statements need no order among them.
struct LikeBatchStatements: Sendable {
    let changes: [LikeGroupCommit.Change]
    /// The like rows that appear, returning their products (one already there is left as it is).
    /// The batch's first statement when it has a like: it takes the write lock (`writeTransaction`).
    let insert: SQLQueryString?
    /// The like rows that go away, returning their products (an unlike of no like changes nothing).
    let delete: SQLQueryString?

    init(changes: [LikeGroupCommit.Change], now: Date) {
        self.changes = changes
        let likes = changes.filter(\.like), unlikes = changes.filter { !$0.like }
        let rows: [SQLQueryString] = likes.map { "(\(bind: UUID.v7(at: now)), \(bind: $0.userID), \(bind: $0.product.id), \(bind: now))" }
        insert = likes.isEmpty ? nil : """
            INSERT INTO \(ident: ProductLike.schema) (id, user_id, product_id, created_at) VALUES \(rows.joined(separator: ", "))
            ON CONFLICT (user_id, product_id) DO NOTHING RETURNING product_id
            """
        let pairs: [SQLQueryString] = unlikes.map { "(user_id = \(bind: $0.userID) AND product_id = \(bind: $0.product.id))" }
        delete = unlikes.isEmpty ? nil : "DELETE FROM \(ident: ProductLike.schema) WHERE \(pairs.joined(separator: " OR ")) RETURNING product_id"
    }

    /// Each product's move: +1 per row that appeared, −1 per row that went away, 0 for the others.
    func deltas(inserted: [any SQLRow], deleted: [any SQLRow]) throws -> [UUID: Int] {
        var deltas = Dictionary(changes.map { ($0.product.id, 0) }, uniquingKeysWith: { first, _ in first })
        for row in inserted { deltas[try row.decode(column: "product_id", as: UUID.self), default: 0] += 1 }
        for row in deleted { deltas[try row.decode(column: "product_id", as: UUID.self), default: 0] -= 1 }
        return deltas
    }

    /// Moves each product's counter by its delta, returning its count afterwards; a product whose rows
    /// did not change is only read. One statement takes the rows in the order of its scan, so
    /// concurrent batches on PostgreSQL lock products in one order.
    static func counting(_ deltas: [UUID: Int]) -> [SQLQueryString] {
        let moved = deltas.filter { $0.value != 0 }
        let unmoved = deltas.compactMap { $0.value == 0 ? $0.key : nil }
        var statements: [SQLQueryString] = []
        if !moved.isEmpty {
            let cases: [SQLQueryString] = moved.map { "WHEN \(bind: $0.key) THEN \(bind: $0.value)" }
            statements.append("""
                UPDATE \(ident: Product.schema) SET like_count = like_count + CASE id \(cases.joined(separator: " ")) END
                WHERE id IN (\(binds: Array(moved.keys))) RETURNING id, like_count
                """)
        }
        if !unmoved.isEmpty {
            statements.append("SELECT id, like_count FROM \(ident: Product.schema) WHERE id IN (\(binds: unmoved))")
        }
        return statements
    }

    /// The like counts in the rows of `counting`'s statements.
    static func counts(in rows: [any SQLRow]) throws -> [UUID: Int] {
        var counts: [UUID: Int] = [:]
        for row in rows { counts[try row.decode(column: "id", as: UUID.self)] = try row.decode(column: "like_count", as: Int.self) }
        return counts
    }

    /// The stores' moves of the batch's product moves.
    func storeDeltas(_ deltas: [UUID: Int]) -> [UUID: Int] {
        let storeOf = Dictionary(changes.map { ($0.product.id, $0.product.storeID) }, uniquingKeysWith: { first, _ in first })
        var stores: [UUID: Int] = [:]
        for (productID, delta) in deltas where delta != 0 { stores[storeOf[productID]!, default: 0] += delta }
        return stores
    }
}
