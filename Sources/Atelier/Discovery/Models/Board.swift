import Fluent
import Foundation

/// A lookbook board: a named collection of products, private or public (then shared by its link).
final class Board: Model, @unchecked Sendable {
    static let schema = "boards"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "name") var name: String
    @Field(key: "is_public") var isPublic: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A product pinned to a board.
final class BoardItem: Model, @unchecked Sendable {
    static let schema = "board_items"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "board_id") var boardID: UUID
    @Parent(key: "product_id") var product: Product
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
