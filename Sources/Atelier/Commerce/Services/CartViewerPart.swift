import Foundation
import SQLKit

/// Commerce's mark for `CatalogViewer`: how many of each product are in the person's cart, all
/// sizes together (a person has one cart: carts are unique on the account). PostgreSQL sums integers
/// as NUMERIC; the cast reads the same on both databases.
enum CartViewerPart {
    static let quantities: CatalogViewer.ProductPart = { userID, productIDs in
        """
        SELECT v.product_id AS product_id, '\(unsafeRaw: CatalogViewer.Mark.cart.rawValue)' AS mark, NULL AS board_id, CAST(SUM(cl.quantity) AS BIGINT) AS quantity
        FROM \(ident: Cart.schema) c JOIN \(ident: CartLine.schema) cl ON cl.cart_id = c.id
        JOIN \(ident: ProductVariant.schema) v ON v.id = cl.variant_id
        WHERE c.user_id = \(bind: userID) AND v.product_id IN (\(binds: productIDs))
        GROUP BY v.product_id
        """
    }
}
