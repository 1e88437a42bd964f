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
        try await like(.init(id: product.requireID(), storeID: product.$store.id), by: user.requireID())
    }

    @discardableResult
    func like(_ product: ProductCatalog.ProductRef, by userID: UUID) async throws -> Int {
        let now = now
        return try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: ProductLike.schema) (id, user_id, product_id, created_at)
                VALUES (\(bind: UUID.v7(at: now)), \(bind: userID), \(bind: product.id), \(bind: now))
                ON CONFLICT (user_id, product_id) DO NOTHING RETURNING id
                """).all()
            if !inserted.isEmpty { return try await bump(product.id, storeID: product.storeID, by: 1, on: sql) }
            return try await likeCount(product.id, on: sql)
        }
    }

    /// Takes a like back (a no-op when there is none). Returns the like count afterwards.
    @discardableResult
    func unlike(_ product: Product, by user: User) async throws -> Int {
        try await unlike(.init(id: product.requireID(), storeID: product.$store.id), by: user.requireID())
    }

    @discardableResult
    func unlike(_ product: ProductCatalog.ProductRef, by userID: UUID) async throws -> Int {
        try await services.writeTransaction(on: db) { tx in
            let sql = tx as! any SQLDatabase
            let deleted = try await sql.raw("""
                DELETE FROM \(ident: ProductLike.schema) WHERE user_id = \(bind: userID) AND product_id = \(bind: product.id)
                RETURNING id
                """).all()
            if !deleted.isEmpty { return try await bump(product.id, storeID: product.storeID, by: -1, on: sql) }
            return try await likeCount(product.id, on: sql)
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

    /// Moves the counters; returns the product's new like count.
    private func bump(_ productID: UUID, storeID: UUID, by delta: Int, on sql: any SQLDatabase) async throws -> Int {
        let row = try await sql.raw("""
            UPDATE \(ident: Product.schema) SET like_count = like_count + \(bind: delta) WHERE id = \(bind: productID) RETURNING like_count
            """).first()
        try await StoreStatsService.bump(storeID: storeID, day: StatsDay.string(now), likes: delta, on: sql)
        return try row?.decode(column: "like_count", as: Int.self) ?? 0
    }

    private func likeCount(_ productID: UUID, on sql: any SQLDatabase) async throws -> Int {
        let row = try await sql.raw("SELECT like_count FROM \(ident: Product.schema) WHERE id = \(bind: productID)").first()
        return try row?.decode(column: "like_count", as: Int.self) ?? 0
    }
}
