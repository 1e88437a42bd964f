import AtelierAPI
import Foundation
import OpenAPIRuntime

/// Hearts on other people's outfits: one like per person, never on one's own outfit (409).
public struct OutfitLikes: Sendable {
    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    /// Likes an outfit the person may see; liking twice changes nothing. 404 (`rejected`) for an
    /// outfit they may not see.
    public func like(_ outfitID: String) async throws -> Components.Schemas.LikeState {
        let output = try await session.client.likeOutfit(path: .init(outfitId: outfitID))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .conflict(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 409)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .forbidden(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 403)
        default: throw AtelierError.unexpectedResponse("likeOutfit: \(output)")
        }
    }

    /// Takes the like back; unliking twice changes nothing.
    public func unlike(_ outfitID: String) async throws -> Components.Schemas.LikeState {
        let output = try await session.client.unlikeOutfit(path: .init(outfitId: outfitID))
        switch output {
        case .ok(let ok): return try ok.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .notFound(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 404)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        case .forbidden(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 403)
        default: throw AtelierError.unexpectedResponse("unlikeOutfit: \(output)")
        }
    }
}

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
