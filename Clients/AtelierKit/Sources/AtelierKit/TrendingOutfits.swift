import AtelierAPI
import Foundation
import OpenAPIRuntime

extension Trending {
    /// The outfits the person may see whose owners live within `radiusKm` (1, 5, 10 or 50; their
    /// discovery radius when nil) of `lat`/`lng` (their home when nil), most liked this week first.
    public func outfits(lat: Double? = nil, lng: Double? = nil, radiusKm: Int? = nil, limit: Int = 20) async throws -> [Components.Schemas.Outfit] {
        let output = try await session.client.listTrendingOutfits(query: .init(lat: lat, lng: lng, radiusKm: try Self.radius(radiusKm), limit: limit))
        switch output {
        case .ok(let ok): return try ok.body.json.items
        case .unauthorized: throw AtelierError.signedOut
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .forbidden(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 403)
        default: throw AtelierError.unexpectedResponse("listTrendingOutfits: \(output)")
        }
    }
}
