import AtelierAPI
import Foundation
import Vapor

/// Stores near a point.
extension APIHandler {
    func listNearbyStores(_ input: Operations.ListNearbyStores.Input) async throws -> Operations.ListNearbyStores.Output {
        let req = try request()
        let q = input.query
        let entries = try await NearbyStores(db: req.db, services: services)
            .around(lat: q.lat, lng: q.lng, radiusKm: q.radiusKm ?? 5, openOnly: q.openNow ?? false, limit: q.limit ?? PageRequest.defaultLimit)
        let images = try await CatalogImages.load(stores: entries.map(\.store), media: MediaService(db: req.db, services: services))
        return .ok(.init(body: .json(.init(items: entries.map {
            .init(store: storeBody($0.store, images), distanceMeters: $0.distanceMeters, openNow: $0.openNow)
        }))))
    }
}
