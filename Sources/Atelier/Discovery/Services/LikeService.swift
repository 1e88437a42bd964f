import Fluent
import Foundation
import SQLKit

/// Likes put products into the liker's lookbook. The like row and the product's counter change in
/// one transaction, and only when the row really appeared or went away, so `like_count` always
/// equals the number of like rows, however many likes and unlikes race. Likes arriving together
/// share one transaction (`LikeGroupCommit`).
struct LikeService {
    let db: any Database
    let core: CoreServices
    let likeWrites: LikeGroupCommit

    /// Likes `product` (a no-op when already liked). Returns the product's like count afterwards.
    @discardableResult
    func like(_ product: Product, by user: User) async throws -> Int {
        try await like(.init(id: product.requireID(), storeID: product.$store.id), by: user.requireID())
    }

    @discardableResult
    func like(_ product: ProductCatalog.ProductRef, by userID: UUID) async throws -> Int {
        try await likeWrites.apply(.init(product: product, userID: userID, like: true), on: db)
    }

    /// Takes a like back (a no-op when there is none). Returns the like count afterwards.
    @discardableResult
    func unlike(_ product: Product, by user: User) async throws -> Int {
        try await unlike(.init(id: product.requireID(), storeID: product.$store.id), by: user.requireID())
    }

    @discardableResult
    func unlike(_ product: ProductCatalog.ProductRef, by userID: UUID) async throws -> Int {
        try await likeWrites.apply(.init(product: product, userID: userID, like: false), on: db)
    }

    /// The caller's liked products that they may still see (`visibility`: a trade customer's
    /// wholesaler too), newest like first.
    func lookbook(of user: User, page: PageRequest, visibility: StoreVisibility = .publicOnly) async throws -> Page<(like: ProductLike, product: Product)> {
        let userID = try user.requireID()
        let likes = try await ProductLike.query(on: db).filter(\.$userID == userID)
            .joiningVisibleProducts(\.$product.$id, visibility: visibility).newestFirst(page).all()
        let rows = try likes.map { ($0, try $0.joined(Product.self)) }
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.0.id!) }
    }
}
