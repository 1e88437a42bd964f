import Fluent
import Foundation

extension QueryBuilder {
    /// Keeps the rows (likes, wishlist items, board items) whose product is active in an active
    /// store that is not sign-in-to-browse (public boards must not show a trade catalogue), or one
    /// `visibility` admits (a person's own lookbook); read the product with `joined(Product.self)`.
    func joiningVisibleProducts(_ productID: KeyPath<Model, FieldProperty<Model, UUID>>, visibility: StoreVisibility = .publicOnly) -> Self {
        let joined = join(Product.self, on: productID == \Product.$id)
            .join(Store.self, on: \Product.$store.$id == \Store.$id)
            .filter(Product.self, \.$status == Product.Status.active.rawValue)
            .filter(Store.self, \.$status == Store.Status.active.rawValue)
        guard !visibility.isPublicOnly else { return joined.filter(Store.self, \.$membersOnly == false) }
        return joined.group(.or) {
            $0.filter(Store.self, \.$membersOnly == false).filter(Store.self, \.$id ~~ visibility.membersOnlyStoreIDs)
        }
    }
}
