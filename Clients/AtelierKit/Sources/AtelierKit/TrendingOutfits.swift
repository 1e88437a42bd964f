import AtelierAPI
import Foundation
import OpenAPIRuntime

extension Trending {
    /// The outfits the person may see whose owners live within `radiusKm` (1, 5, 10 or 50; their
    /// discovery radius when nil) of `lat`/`lng` (their home when nil), most liked this week first.
    public func outfits(lat: Double? = nil, lng: Double? = nil, radiusKm: Int? = nil, limit: Int = 20) async throws -> [Components.Schemas.Outfit] {
        try await session.wardrobe.listTrendingOutfits(query: .init(lat: lat, lng: lng, radiusKm: try Self.radius(radiusKm), limit: limit)).items
    }
}
