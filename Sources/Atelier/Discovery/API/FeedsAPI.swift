import AtelierServerAPI
import Foundation
import Vapor

/// The following and discover feeds.
extension APIHandler {
    func getFollowingFeed(_ input: Operations.GetFollowingFeed.Input) async throws -> Operations.GetFollowingFeed.Output {
        let q = input.query
        let overrides = FeedFilters.Overrides(
            gender: q.gender, radiusKm: q.radiusKm, lat: q.lat, lng: q.lng, city: q.city, uploadedWithin: q.uploadedWithin)
        return .ok(.init(body: .json(try await feedBody(.following, overrides, asOf: q.asOf, cursor: q.cursor, limit: q.limit))))
    }

    func getDiscoverFeed(_ input: Operations.GetDiscoverFeed.Input) async throws -> Operations.GetDiscoverFeed.Output {
        let q = input.query
        let overrides = FeedFilters.Overrides(
            gender: q.gender, radiusKm: q.radiusKm, lat: q.lat, lng: q.lng, city: q.city, uploadedWithin: q.uploadedWithin,
            preferences: q.preferences)
        return .ok(.init(body: .json(try await feedBody(.discover, overrides, asOf: q.asOf, cursor: q.cursor, limit: q.limit))))
    }

    private func feedBody(_ kind: FeedService.Kind, _ overrides: FeedFilters.Overrides, asOf: Date?, cursor: String?, limit: Int?)
        async throws -> Components.Schemas.FeedPage
    {
        let req = try request()
        let user = try await req.requireCaller().user
        let visibility = try await req.storeVisibility(for: user)
        let (filters, page) = try await req.reading { db in
            let filters = try await FeedFilters.resolve(kind, for: user, overriding: overrides, preferences: services.shoppingPreferences, db: db)
            let page = try await FeedService(db: db, core: services.core)
                .page(kind, for: user, filters: filters, asOf: asOf, cursor: cursor, limit: limit, visibility: visibility)
            return (filters, page)
        }
        var origin: Components.Schemas.ProductCard.Origin?
        if case .radius(let lat, let lng, _) = filters.place { origin = .init(lat: lat, lng: lng) }
        let applied = filters.shopping?.filters ?? []
        return .init(
            items: try await productCards(cards: page.items, req, from: origin), nextCursor: page.nextCursor, asOf: page.asOf,
            appliedPreferences: applied.isEmpty ? nil : applied.compactMap { .init(rawValue: $0.rawValue) })
    }
}
