import Fluent
import Foundation

/// One daily re-draw of the feed sort keys: when, and how many products it touched.
final class FeedRedraw: Model, @unchecked Sendable {
    static let schema = "feed_redraws"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "redrawn_at") var redrawnAt: Date
    @Field(key: "product_count") var productCount: Int

    init() {}
}
