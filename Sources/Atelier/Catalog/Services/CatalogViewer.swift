import Foundation
import SQLKit

/// What one signed-in person did with catalogue things (issue 51): so that an app loading a product
/// draws the filled heart and the cart badge, and one loading a store draws "Following". The domains
/// that keep these marks (likes, boards and follows in Discovery, the cart in Commerce) sit above the
/// catalogue: each gives its part as SQL when the services are built, and the catalogue reads every part
/// of a page in one statement without naming them.
struct CatalogViewer {
    struct ProductState: Sendable, Equatable {
        var liked = false
        var boardIDs: [UUID] = []
        var cartQuantity = 0
    }

    /// A mark a part's rows carry in their `mark` column.
    enum Mark: String, Sendable {
        case liked, board, cart
    }

    /// Rows `(product_id, mark, board_id, quantity)` of one person's marks on some products:
    /// `board_id` is NULL but for `board`, `quantity` is 0 but for `cart`.
    typealias ProductPart = @Sendable (_ userID: UUID, _ productIDs: [UUID]) -> SQLQueryString
    /// The ids among `targets` (stores or brands, by `kind`) the person follows.
    typealias FollowPart = @Sendable (_ userID: UUID, _ kind: FollowedKind, _ targets: [UUID]) -> SQLQueryString

    enum FollowedKind: String, Sendable { case store, brand }

    /// The parts, registered once at start-up.
    struct Parts: Sendable {
        var products: [ProductPart] = []
        var follows: FollowPart?
    }

    let sql: any SQLDatabase
    let parts: Parts
    let userID: UUID

    /// Each of `productIDs` with its marks (a product without any has the empty state).
    func products(_ productIDs: [UUID]) async throws -> [UUID: ProductState] {
        let ids = Array(Set(productIDs))
        var states = Dictionary(uniqueKeysWithValues: ids.map { ($0, ProductState()) })
        guard !ids.isEmpty, !parts.products.isEmpty else { return states }
        var query: SQLQueryString = ""
        for (index, part) in parts.products.enumerated() {
            if index > 0 { query += " UNION ALL " }
            query += part(userID, ids)
        }
        let textUUIDs = FastColumns.textUUIDs(on: sql)
        for raw in try await sql.raw(query).all() {
            let row = FastColumns(raw, textUUIDs: textUUIDs)
            let productID = try row.uuid("product_id")
            switch Mark(rawValue: try row.value("mark", as: String.self)) {
            case .liked: states[productID, default: .init()].liked = true
            case .board: if let board = try row.optionalUUID("board_id") { states[productID, default: .init()].boardIDs.append(board) }
            case .cart: states[productID, default: .init()].cartQuantity += try row.value("quantity", as: Int.self)
            case nil: continue
            }
        }
        for id in states.keys { states[id]?.boardIDs.sort { $0.uuidString < $1.uuidString } }
        return states
    }

    /// The ids among `targets` the person follows.
    func followed(_ kind: FollowedKind, _ targets: [UUID]) async throws -> Set<UUID> {
        guard !targets.isEmpty, let part = parts.follows else { return [] }
        let textUUIDs = FastColumns.textUUIDs(on: sql)
        return Set(try await sql.raw(part(userID, kind, Array(Set(targets)))).all().map {
            try FastColumns($0, textUUIDs: textUUIDs).uuid("target_id")
        })
    }
}
