import Foundation
import SQLKit

/// Discovery's marks for `CatalogViewer`: the products a person liked and saved to their boards,
/// and the stores and brands they follow. Each is an index look-up by the person (likes and follows
/// are unique on the person and the target; boards on the person and the name).
enum DiscoveryViewerParts {
    static let likes: CatalogViewer.ProductPart = { userID, productIDs in
        """
        SELECT l.product_id AS product_id, '\(unsafeRaw: CatalogViewer.Mark.liked.rawValue)' AS mark, NULL AS board_id, 0 AS quantity
        FROM \(ident: ProductLike.schema) l WHERE l.user_id = \(bind: userID) AND l.product_id IN (\(binds: productIDs))
        """
    }

    static let boards: CatalogViewer.ProductPart = { userID, productIDs in
        """
        SELECT bi.product_id AS product_id, '\(unsafeRaw: CatalogViewer.Mark.board.rawValue)' AS mark, bi.board_id AS board_id, 0 AS quantity
        FROM \(ident: Board.schema) bo JOIN \(ident: BoardItem.schema) bi ON bi.board_id = bo.id
        WHERE bo.user_id = \(bind: userID) AND bi.product_id IN (\(binds: productIDs))
        """
    }

    static let follows: CatalogViewer.FollowPart = { userID, kind, targets in
        let target: Follow.Target = kind == .store ? .store : .brand
        return """
            SELECT target_id FROM \(ident: Follow.schema)
            WHERE user_id = \(bind: userID) AND target_type = \(bind: target.rawValue) AND target_id IN (\(binds: targets))
            """
    }
}
