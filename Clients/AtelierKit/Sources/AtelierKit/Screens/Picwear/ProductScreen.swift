import AtelierAPI
import Foundation
import Observation

/// Picwear's product page: the product, its heart, a size to pick, the wishlist and the cart.
@MainActor
@Observable
public final class ProductScreen {
    public let productID: String
    public private(set) var product: Components.Schemas.Product?
    /// The size picked for the cart (a variant id); the first one in stock once loaded.
    public var selectedVariantID: String?
    /// Whether the product is on the wishlist: nil until this screen put it there or took it off
    /// (the product's answer does not say).
    public private(set) var isOnWishlist: Bool?
    /// The cart after the last "Add to cart".
    public private(set) var cart: Components.Schemas.Cart?
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, productID: String) {
        self.session = session
        self.productID = productID
    }

    public func load() async {
        guard let product = await activity.run({ [session, productID] in try await session.catalog.getProduct(productId: productID) }) else { return }
        self.product = product
        if selectedVariantID == nil { selectedVariantID = product.variants.first { $0.stock > 0 }?.id }
    }

    /// The heart changes at once; if the server refuses, it goes back and `activity.error` says why.
    public func toggleLike() async {
        guard let before = product?.likeState, let wanted = product?.toggled else { return }
        product?.show(wanted)
        let answer = await activity.run(exclusive: false) { [session, productID] in
            try await session.discovery.setLiked(productId: productID, wanted.liked)
        }
        product?.show(answer ?? before)
    }

    public func setOnWishlist(_ on: Bool) async {
        let done = await activity.run(exclusive: false) { [session, productID] in
            on ? try await session.discovery.addToWishlist(productId: productID) : try await session.discovery.removeFromWishlist(productId: productID)
            return true
        }
        if done == true { isOnWishlist = on }
    }

    /// The picked size into the cart.
    public func addToCart(quantity: Int = 1) async {
        guard let variant = selectedVariantID else { return }
        guard let cart = await activity.run({ [session] in try await session.cart.add(variantID: variant, quantity: quantity) }) else { return }
        self.cart = cart
    }
}
