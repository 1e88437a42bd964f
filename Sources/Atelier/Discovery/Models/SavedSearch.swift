import Fluent
import Foundation

/// A named filter set a user follows: its new matches flow into their following feed.
final class SavedSearch: Model, @unchecked Sendable {
    static let schema = "saved_searches"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "name") var name: String
    /// A `ProductSearchQuery` as JSON.
    @Field(key: "query") var queryJSON: String
    @Field(key: "created_at") var createdAt: Date

    init() {}

    var query: ProductSearchQuery {
        (try? JSONDecoder().decode(ProductSearchQuery.self, from: Data(queryJSON.utf8))) ?? ProductSearchQuery()
    }
}
