import Foundation

/// A product's category as its view shows it, read without a model (`ProductViewReader`, issue 19).
struct CategoryLine: Sendable {
    var id: UUID
    var parentID: UUID?
    var name: String
    var slug: String
    var gender: String
    var path: String
    var depth: Int
    var createdAt: Date

    /// The columns `init` reads from categories `c`, each as `c_` and its name (the id is the product's `category_id`).
    static let columns = ["parent_id", "name", "slug", "gender", "path", "depth", "created_at"]
        .map { "c.\($0) AS c_\($0)" }.joined(separator: ", ")

    init(_ row: FastColumns, id: UUID) throws {
        self.id = id
        parentID = try row.optionalUUID("c_parent_id")
        name = try row.value("c_name", as: String.self)
        slug = try row.value("c_slug", as: String.self)
        gender = try row.value("c_gender", as: String.self)
        path = try row.value("c_path", as: String.self)
        depth = try row.value("c_depth", as: Int.self)
        createdAt = try row.value("c_created_at", as: Date.self)
    }
}
