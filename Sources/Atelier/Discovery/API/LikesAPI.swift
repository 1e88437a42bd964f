import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Likes and the lookbook.
extension APIHandler {
    func likeProduct(_ input: Operations.LikeProduct.Input) async throws -> Operations.LikeProduct.Output {
        let (req, user, product) = try await likeTarget(input.path.productId)
        let count = try await LikeService(db: req.db, core: services.core, likeWrites: services.likeWrites).like(product, by: user.requireID())
        return .ok(.init(body: .json(.init(liked: true, likeCount: count))))
    }

    func unlikeProduct(_ input: Operations.UnlikeProduct.Input) async throws -> Operations.UnlikeProduct.Output {
        let (req, user, product) = try await likeTarget(input.path.productId)
        let count = try await LikeService(db: req.db, core: services.core, likeWrites: services.likeWrites).unlike(product, by: user.requireID())
        return .ok(.init(body: .json(.init(liked: false, likeCount: count))))
    }

    func getLookbook(_ input: Operations.GetLookbook.Input) async throws -> Operations.GetLookbook.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let visibility = try await req.storeVisibility(for: user)
        let likes = try await req.reading { db in
            try await LikeService(db: db, core: services.core, likeWrites: services.likeWrites).lookbook(of: user, page: page, visibility: visibility)
        }
        return .ok(.init(body: .json(.init(items: try await productCards(likes.items.map(\.product), req), nextCursor: likes.nextCursor))))
    }

    /// A product the signed-in caller may see (an unknown or hidden one is a 404).
    private func likeTarget(_ rawID: String) async throws -> (Request, User, ProductCatalog.ProductRef) {
        let req = try request()
        let user = try await req.requireCaller().user
        let product = try await ProductCatalog(db: req.readDatabase).visibleProductRef(try PathID.parse(rawID, "product"), to: user)
        return (req, user, product)
    }
}
