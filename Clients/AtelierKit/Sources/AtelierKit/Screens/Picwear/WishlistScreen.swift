import AtelierAPI
import Foundation
import Observation

/// Picwear's wishlist: the products a person means to go and see, and the walk through the stores
/// that hold them from where the person stands.
@MainActor
@Observable
public final class WishlistScreen {
    public let items: PagedListScreen<Components.Schemas.ProductCard>
    /// The last route asked for, stops in walking order.
    public private(set) var route: Components.Schemas.WishlistRoute?
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession) {
        self.session = session
        items = PagedListScreen(session.discovery.getWishlistItems())
    }

    /// The walk from here (the phone's position) through every store with a wished product.
    public func planRoute(lat: Double, lng: Double) async {
        guard let route = await activity.run({ [session] in try await session.discovery.getWishlistRoute(query: .init(lat: lat, lng: lng)) }) else { return }
        self.route = route
    }

    /// Off the wishlist, and off the screen once the server confirmed.
    public func remove(productID: String) async {
        let done = await activity.run(exclusive: false) { [session] in
            try await session.discovery.removeFromWishlist(productId: productID)
            return true
        }
        guard done == true else { return }
        items.remove { $0.id == productID }
        route = nil
    }
}
