import AtelierAPI
import Foundation
import OpenAPIRuntime

extension Trending {
    /// The posts of the person's circle (their own and their friends') with the most reactions in
    /// the last seven days, most first. Signed in only.
    public func posts(limit: Int = 20) async throws -> [Components.Schemas.Post] {
        let output = try await session.client.listTrendingPosts(query: .init(limit: limit))
        switch output {
        case .ok(let ok): return try ok.body.json.items
        case .unauthorized: throw AtelierError.signedOut
        case .unprocessableContent(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 422)
        case .badRequest(let r): throw AtelierError(try? r.body.applicationProblemJson, status: 400)
        default: throw AtelierError.unexpectedResponse("listTrendingPosts: \(output)")
        }
    }
}
