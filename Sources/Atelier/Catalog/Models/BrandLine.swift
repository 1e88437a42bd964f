import Foundation

/// A product's brand as its view shows it, read without a model (`ProductViewReader`, issue 19).
struct BrandLine: BrandColumns {
    /// Always set; optional as the model's is, so that both draw the same way.
    var id: UUID?
    var name: String
    var slug: String
    var logoMediaID: UUID?
    var status: String
    var proposedByStoreID: UUID?
    var followerCount: Int
    var createdAt: Date

    /// The columns `init` reads from brands `b`, each as `b_` and its name (the id is the product's `brand_id`).
    static let columns = ["name", "slug", "logo_media_id", "status", "proposed_by_store_id", "follower_count", "created_at"]
        .map { "b.\($0) AS b_\($0)" }.joined(separator: ", ")

    /// nil when the product has no brand (the joined row's columns are null).
    init?(_ row: FastColumns, id: UUID?) throws {
        guard let id, let name = try row.optional("b_name", as: String.self) else { return nil }
        self.id = id
        self.name = name
        slug = try row.value("b_slug", as: String.self)
        logoMediaID = try row.optionalUUID("b_logo_media_id")
        status = try row.value("b_status", as: String.self)
        proposedByStoreID = try row.optionalUUID("b_proposed_by_store_id")
        followerCount = try row.value("b_follower_count", as: Int.self)
        createdAt = try row.value("b_created_at", as: Date.self)
    }
}
