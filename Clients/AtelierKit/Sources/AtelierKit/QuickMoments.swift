import AtelierAPI
import Foundation
import OpenAPIRuntime

/// "I'm at something right now": a private two-hour moment with its creator checked in, around the
/// position, at a nearby place the person picked (`GET /places/nearby`), or at a spot they named.
public struct QuickMoments: Sendable {
    public enum Place: Sendable {
        case here
        case saved(placeID: String)
        case named(String, radiusMeters: Int = 100)
    }

    let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
    }

    public func start(lat: Double, lng: Double, accuracyMeters: Double? = nil, at place: Place = .here) async throws -> Components.Schemas.Moment {
        var input = Components.Schemas.QuickMomentInput(lat: lat, lng: lng, accuracyMeters: accuracyMeters)
        switch place {
        case .here: break
        case .saved(let id): input.placeId = id
        case .named(let name, let radius): (input.placeName, input.radiusMeters) = (name, radius)
        }
        let output = try await session.client.createQuickMoment(body: .json(input))
        switch output {
        case .created(let created): return try created.body.json
        case .unauthorized: throw AtelierError.signedOut
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        default: throw AtelierError.unexpectedResponse("createQuickMoment: \(output)")
        }
    }
}
