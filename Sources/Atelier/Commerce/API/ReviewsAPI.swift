import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Product reviews and the store's replies.
extension APIHandler {
    func listProductReviews(_ input: Operations.ListProductReviews.Input) async throws -> Operations.ListProductReviews.Output {
        let req = try request()
        let viewer = try await req.optionalCaller()?.user
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let productID = try PathID.parse(input.path.productId, "product")
        let product = try await ProductCatalog(db: req.db).visibleProduct(productID, to: viewer)
        let reviews = try await ReviewService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).reviews(of: productID, viewer: viewer?.id, page: page)
        return .ok(.init(body: .json(.init(
            items: try await reviewBodies(reviews.items, req.db), nextCursor: reviews.nextCursor,
            rating: .init(average: product.reviewCount > 0 ? Double(product.ratingSum) / Double(product.reviewCount) : 0, count: product.reviewCount)))))
    }

    func writeReview(_ input: Operations.WriteReview.Input) async throws -> Operations.WriteReview.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let product = try await ProductCatalog(db: req.db).visibleProductRef(try PathID.parse(input.path.productId, "product"), to: user)
        let review = try await ReviewService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).write(stars: body.stars, text: body.text ?? "", on: product, by: user)
        return .ok(.init(body: .json(try await reviewBodies([review], req.db)[0])))
    }

    func deleteReview(_ input: Operations.DeleteReview.Input) async throws -> Operations.DeleteReview.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let product = try await ProductCatalog(db: req.db).visibleProductRef(try PathID.parse(input.path.productId, "product"), to: user)
        try await ReviewService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).delete(on: product, by: user)
        return .noContent(.init())
    }

    func replyToReview(_ input: Operations.ReplyToReview.Input) async throws -> Operations.ReplyToReview.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).managedStore(input.path.storeId, by: user)
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let review = try await ReviewService(db: req.db, core: services.core, catalogChanges: services.catalogChanges).reply(input.path.reviewId, text: body.text, in: store)
        return .ok(.init(body: .json(try await reviewBodies([review], req.db)[0])))
    }

    func productsByCode(_ input: Operations.ProductsByCode.Input) async throws -> Operations.ProductsByCode.Output {
        let req = try request()
        let user = try await req.optionalCaller()?.user
        var errors = FieldErrors()
        Geo.check(lat: input.query.lat, lng: input.query.lng, into: &errors)
        try errors.throwIfAny()
        let near = input.query.lat.flatMap { lat in input.query.lng.map { (lat: lat, lng: $0) } }
        let views = try await BarcodeLookup(db: req.db).products(code: input.path.gtin, near: near, radiusKm: input.query.radiusKm, for: user)
        return .ok(.init(body: .json(.init(items: try await productBodies(views: views, req), nextCursor: nil))))
    }

    private func reviewBodies(_ reviews: [Review], _ db: any Database) async throws -> [Components.Schemas.Review] {
        let users = try await User.query(on: db).filter(\.$id ~~ reviews.map(\.userID)).all()
        let authors = Dictionary(uniqueKeysWithValues: users.map { ($0.id!, $0) })
        let viewerID = try await request().optionalCaller()?.user.id
        let avatars = try await PeopleDirectory(db: db, core: services.core, mediaLibrary: services.media).avatars(of: users, viewer: viewerID)
        return reviews.map { review in
            let author = authors[review.userID]
            return .init(
                id: review.id!.idString, productId: review.productID.idString,
                author: .init(
                    id: review.userID.idString, displayName: author?.displayName ?? "", username: author?.username ?? "",
                    avatar: avatars[review.userID].map(Components.Schemas.Image.init)),
                stars: review.stars, text: review.text, verifiedPurchase: review.verified, reply: review.reply, repliedAt: review.repliedAt,
                createdAt: review.createdAt, updatedAt: review.updatedAt)
        }
    }
}
