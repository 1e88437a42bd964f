import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// The wishlist and its walking route.
extension APIHandler {
    func getWishlist(_ input: Operations.GetWishlist.Input) async throws -> Operations.GetWishlist.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let items = try await WishlistService(db: req.db, core: services.core).items(of: user, page: page)
        return .ok(.init(body: .json(.init(items: try await productCards(items.items, req), nextCursor: items.nextCursor))))
    }

    func addToWishlist(_ input: Operations.AddToWishlist.Input) async throws -> Operations.AddToWishlist.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let product = try await ProductCatalog(db: req.db).visibleProduct(try PathID.parse(input.path.productId, "product"), to: user)
        try await WishlistService(db: req.db, core: services.core).add(product, for: user)
        return .noContent(.init())
    }

    func removeFromWishlist(_ input: Operations.RemoveFromWishlist.Input) async throws -> Operations.RemoveFromWishlist.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        try await WishlistService(db: req.db, core: services.core).remove(try PathID.parse(input.path.productId, "product"), for: user)
        return .noContent(.init())
    }

    func getWishlistRoute(_ input: Operations.GetWishlistRoute.Input) async throws -> Operations.GetWishlistRoute.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        var errors = FieldErrors()
        Geo.check(lat: input.query.lat, lng: input.query.lng, into: &errors)
        try errors.throwIfAny()
        let route = try await WishlistService(db: req.db, core: services.core).route(for: user, fromLat: input.query.lat, lng: input.query.lng)
        let images = try await CatalogImages.load(stores: route.stops.map(\.store), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        var stops: [Components.Schemas.WishlistStop] = []
        for stop in route.stops {
            stops.append(.init(
                store: storeBody(stop.store, images), distanceMeters: stop.distanceMeters, items: try await productCards(stop.products, req)))
        }
        return .ok(.init(body: .json(.init(totalDistanceMeters: route.totalMeters, stops: stops))))
    }
}
