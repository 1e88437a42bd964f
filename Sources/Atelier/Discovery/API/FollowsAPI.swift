import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Follows of stores and brands.
extension APIHandler {
    func listFollows(_ input: Operations.ListFollows.Input) async throws -> Operations.ListFollows.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let (stores, brands) = try await FollowService(db: req.db, core: services.core).following(user)
        let searches = try await SavedSearchService(db: req.db, core: services.core).list(of: user)
        let images = try await CatalogImages.load(stores: stores, brands: brands, media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        var brandBodies = brands.map { Components.Schemas.Brand($0, images: images) }
        try await addViewerState(to: &brandBodies, req)
        return .ok(.init(body: .json(.init(
            searches: searches.map(savedSearchBody), stores: try await storeBodies(stores, images, req), brands: brandBodies))))
    }

    func followStore(_ input: Operations.FollowStore.Input) async throws -> Operations.FollowStore.Output {
        let (req, user, storeID) = try await followedStore(input.path.storeId)
        let count = try await FollowService(db: req.db, core: services.core).follow(.store, storeID, by: user)
        return .ok(.init(body: .json(.init(following: true, followerCount: count))))
    }

    func unfollowStore(_ input: Operations.UnfollowStore.Input) async throws -> Operations.UnfollowStore.Output {
        let (req, user, storeID) = try await followedStore(input.path.storeId)
        let count = try await FollowService(db: req.db, core: services.core).unfollow(.store, storeID, by: user)
        return .ok(.init(body: .json(.init(following: false, followerCount: count))))
    }

    func followBrand(_ input: Operations.FollowBrand.Input) async throws -> Operations.FollowBrand.Output {
        let (req, user, brandID) = try await followedBrand(input.path.brandId)
        let count = try await FollowService(db: req.db, core: services.core).follow(.brand, brandID, by: user)
        return .ok(.init(body: .json(.init(following: true, followerCount: count))))
    }

    func unfollowBrand(_ input: Operations.UnfollowBrand.Input) async throws -> Operations.UnfollowBrand.Output {
        let (req, user, brandID) = try await followedBrand(input.path.brandId)
        let count = try await FollowService(db: req.db, core: services.core).unfollow(.brand, brandID, by: user)
        return .ok(.init(body: .json(.init(following: false, followerCount: count))))
    }

    private func followedStore(_ idOrSlug: String) async throws -> (Request, User, UUID) {
        let req = try request()
        let user = try await req.requireCaller().user
        let store = try await StoreAccess(db: req.db).visibleStore(idOrSlug, to: user)
        return (req, user, try store.requireID())
    }

    /// Approved brands only: a proposal is not a brand anyone can follow yet.
    private func followedBrand(_ rawID: String) async throws -> (Request, User, UUID) {
        let req = try request()
        let user = try await req.requireCaller().user
        guard let brand = try await Brand.find(try PathID.parse(rawID, "brand"), on: req.db), brand.isApproved else {
            throw Problem.notFound("brand")
        }
        return (req, user, try brand.requireID())
    }
}
