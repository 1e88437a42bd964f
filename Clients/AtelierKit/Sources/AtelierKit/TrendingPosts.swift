import AtelierAPI
import Foundation
import OpenAPIRuntime

extension Trending {
    /// The posts of the person's circle (their own and their friends') with the most reactions in
    /// the last seven days, most first. Signed in only.
    public func posts(limit: Int = 20) async throws -> [Components.Schemas.Post] {
        try await session.social.listTrendingPosts(query: .init(limit: limit)).items
    }
}
