import AtelierAPI
import Foundation
import Observation

/// The cart screen of a shop app (GoSuperMarkets' and Picwear's): the cart as the server has it,
/// changes to it, and checkout through one `CheckoutAttempt` per cart, so that "Try again" after a
/// lost connection never orders twice and a changed cart always gets a new attempt.
@MainActor
@Observable
public final class CartScreen {
    public private(set) var cart: Components.Schemas.Cart?
    /// The orders the last checkout placed (one per store).
    public private(set) var orders: [Components.Schemas.Order] = []
    public let activity = ScreenActivity()

    private let session: AtelierSession
    private var attempt: CheckoutAttempt?

    public init(session: AtelierSession) {
        self.session = session
    }

    public var itemCount: Int { cart?.itemCount ?? 0 }

    public func load() async {
        await run { try await self.session.cart.current() }
    }

    public func add(variantID: String, quantity: Int = 1) async {
        await run { try await self.session.cart.add(variantID: variantID, quantity: quantity) }
    }

    public func setQuantity(variantID: String, _ quantity: Int) async {
        await run { try await self.session.cart.setQuantity(variantID: variantID, quantity) }
    }

    /// Orders the cart. After a failure the same call again retries the same attempt (same key).
    public func checkout(fulfilment: Components.Schemas.Fulfilment, paymentMethod: Components.Schemas.PaymentMethod) async {
        let attempt = self.attempt ?? CheckoutAttempt(session: session, fulfilment: fulfilment, paymentMethod: paymentMethod)
        self.attempt = attempt
        let placed = await activity.run { [session] in
            let orders = try await attempt.submit()
            return (orders, try await session.cart.current())
        }
        guard let (orders, cart) = placed else {
            // A refusal is final for its attempt: the next checkout makes a new one. A lost connection keeps it (same key).
            if let error = activity.error, !RetryMiddleware.isConnectionFailure(error) { self.attempt = nil }
            return
        }
        (self.orders, self.cart) = (orders, cart)
        self.attempt = nil
    }

    /// A change to the cart: the cart as it is afterwards, and a new checkout attempt next time.
    private func run(_ change: @escaping @Sendable () async throws -> Components.Schemas.Cart) async {
        guard let cart = await activity.run(change) else { return }
        self.cart = cart
        attempt = nil
    }
}
