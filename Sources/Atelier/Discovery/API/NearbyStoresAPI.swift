import AtelierServerAPI
import Foundation
import Vapor

/// Stores near a point.
extension APIHandler {
    func listNearbyStores(_ input: Operations.ListNearbyStores.Input) async throws -> Operations.ListNearbyStores.Output {
        let req = try request()
        let q = input.query
        let visibility = try await req.storeVisibility(for: req.optionalCaller()?.user)
        let entries = try await NearbyStores(db: req.db, core: services.core, visibility: visibility)
            .around(lat: q.lat, lng: q.lng, radiusKm: q.radiusKm ?? 5, openOnly: q.openNow ?? false, limit: q.limit ?? PageRequest.defaultLimit)
        let images = try await CatalogImages.load(stores: entries.map(\.store), media: MediaService(db: req.db, core: services.core, mediaLibrary: services.media))
        let stores = try await storeBodies(entries.map(\.store), images, req)
        return .ok(.init(body: .json(.init(items: zip(entries, stores).map {
            .init(store: $1, distanceMeters: $0.distanceMeters, openNow: $0.openNow)
        }))))
    }
}
