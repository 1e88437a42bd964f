import AtelierServerAPI
import Foundation
import Vapor

/// `/discovery/trending`: the products most liked and saved this week near a place.
extension APIHandler {
    func listTrendingProducts(_ input: Operations.ListTrendingProducts.Input) async throws -> Operations.ListTrendingProducts.Output {
        let req = try request()
        let user = try await req.optionalCaller()?.user
        let q = input.query
        let limit = q.limit ?? 20
        guard (1...TrendingProducts.maxLimit).contains(limit) else { throw Problem.invalid("limit", "must be 1 to \(TrendingProducts.maxLimit)") }
        let (lat, lng) = try Geo.place(lat: q.lat, lng: q.lng, orHomeOf: user)
        let radius = Double(q.radiusKm?.rawValue ?? user?.radiusKm ?? 10)
        let now = services.clock.now()
        let ranked = try await req.reading { db in
            try await TrendingProducts(db: db, now: now).near(lat: lat, lng: lng, radiusKm: radius, limit: limit)
        }
        let cards = try await ProductCardReader(db: req.db).cards(ids: ranked.map(\.id))
        return .ok(.init(body: .json(.init(
            items: try await productCards(cards: cards, req), since: now.addingTimeInterval(-TrendingProducts.window)))))
    }
}
