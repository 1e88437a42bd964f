import Fluent
import Foundation
import SQLKit

/// Likes put products into the liker's lookbook. The like row and the product's counter change in
/// one transaction, and only when the row really appeared or went away, so `like_count` always
/// equals the number of like rows, however many likes and unlikes race.
struct LikeService {
    let db: any Database
    let services: AtelierServices

    private var now: Date { services.clock.now() }

    /// Likes `product` (a no-op when already liked). Returns the product's like count afterwards.
    @discardableResult
    func like(_ product: Product, by user: User) async throws -> Int {
        let productID = try product.requireID()
        let userID = try user.requireID()
        return try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: ProductLike.schema) (id, user_id, product_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: userID), \(bind: productID), \(bind: now))
                ON CONFLICT (user_id, product_id) DO NOTHING RETURNING id
                """).all()
            if !inserted.isEmpty { try await bump(productID, storeID: product.$store.id, by: 1, on: sql) }
            return try await likeCount(productID, on: sql)
        }
    }

    /// Takes a like back (a no-op when there is none). Returns the like count afterwards.
    @discardableResult
    func unlike(_ product: Product, by user: User) async throws -> Int {
        let productID = try product.requireID()
        return try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            let deleted = try await sql.raw("""
                DELETE FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: try user.requireID()) AND product_id = \(bind: productID)
                RETURNING id
                """).all()
            if !deleted.isEmpty { try await bump(productID, storeID: product.$store.id, by: -1, on: sql) }
            return try await likeCount(productID, on: sql)
        }
    }

    /// The caller's liked products that they may still see, newest like first.
    func lookbook(of user: User, page: PageRequest) async throws -> Page<(like: ProductLike, product: Product)> {
        let userID = try user.requireID()
        let likes = try await ProductLike.query(on: db).filter(\.$userID == userID)
            .joiningVisibleProducts(\.$product.$id).newestFirst(page).all()
        let rows = try likes.map { ($0, try $0.joined(Product.self)) }
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.0.id!) }
    }

    private func bump(_ productID: UUID, storeID: UUID, by delta: Int, on sql: any SQLDatabase) async throws {
        try await sql.raw("""
            UPDATE \(ident: Product.schema) SET like_count = like_count + \(bind: delta) WHERE id = \(bind: productID)
            """).run()
        try await StoreStatsService.bump(storeID: storeID, day: StatsDay.string(now), likes: delta, on: sql)
    }

    private func likeCount(_ productID: UUID, on sql: any SQLDatabase) async throws -> Int {
        let row = try await sql.raw("SELECT like_count FROM \(ident: Product.schema) WHERE id = \(bind: productID)").first()
        return try row?.decode(column: "like_count", as: Int.self) ?? 0
    }
}
