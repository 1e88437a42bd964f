import Fluent
import Foundation

/// A node of the category tree. `path` is the materialised path: the ids (32 hex digits each,
/// no dashes) from the root down to this node, so "this node and everything under it" is the
/// index range `path >= P AND path < P + "g"` (hex digits sort below "g").
final class Category: Model, @unchecked Sendable {
    static let schema = "categories"

    enum Gender: String, Codable, Sendable, CaseIterable { case women, men, unisex }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @OptionalField(key: "parent_id") var parentID: UUID?
    @Field(key: "name") var name: String
    @Field(key: "slug") var slug: String
    @Field(key: "gender") var gender: String
    @Field(key: "path") var path: String
    @Field(key: "depth") var depth: Int
    @Field(key: "created_at") var createdAt: Date
    /// Shown above the category's products (a wholesaler's customers browse by category); may be empty.
    @Field(key: "description") var description: String
    @OptionalField(key: "image_media_id") var imageMediaID: UUID?

    init() {}

    static func segment(_ id: UUID) -> String {
        id.uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The upper bound of this node's subtree range.
    static func subtreeEnd(_ path: String) -> String { path + "g" }
}
