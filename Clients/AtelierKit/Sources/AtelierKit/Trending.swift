import AtelierAPI
import Foundation
import OpenAPIRuntime

/// What is trending near a place: the products most liked and saved in the last seven days.
public struct Trending: Sendable {
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// Near `lat`/`lng`, or the signed-in person's home location when nil; within `radiusKm`
    /// (1, 5, 10 or 50; their discovery radius when nil).
    public func products(lat: Double? = nil, lng: Double? = nil, radiusKm: Int? = nil, limit: Int = 20) async throws -> [Components.Schemas.ProductCard] {
        try await session.discovery.listTrendingProducts(query: .init(lat: lat, lng: lng, radiusKm: try Self.radius(radiusKm), limit: limit)).items
    }

    /// One of the radii the server knows (1, 5, 10 or 50 km), refused here before any request.
    static func radius<Radius: RawRepresentable>(_ km: Int?) throws -> Radius? where Radius.RawValue == Int {
        try km.map { km in
            guard let value = Radius(rawValue: km) else {
                throw AtelierError.rejected(status: 422, detail: "radiusKm must be 1, 5, 10 or 50", fields: ["radiusKm"])
            }
            return value
        }
    }
}
