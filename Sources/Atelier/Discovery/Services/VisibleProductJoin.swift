import Fluent
import Foundation

extension QueryBuilder {
    /// Keeps the rows (likes, wishlist items, board items) whose product is active in an active
    /// store that is not sign-in-to-browse (public boards must not show a trade catalogue); read the
    /// product with `joined(Product.self)`.
    func joiningVisibleProducts(_ productID: KeyPath<Model, FieldProperty<Model, UUID>>) -> Self {
        join(Product.self, on: productID == \Product.$id)
            .join(Store.self, on: \Product.$store.$id == \Store.$id)
            .filter(Product.self, \.$status == Product.Status.active.rawValue)
            .filter(Store.self, \.$status == Store.Status.active.rawValue)
            .filter(Store.self, \.$membersOnly == false)
    }
}
