import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// `/cart…`: the signed-in shopper's cart.
extension APIHandler {
    func getCart(_ input: Operations.GetCart.Input) async throws -> Operations.GetCart.Output {
        let (req, user) = try await cartCaller()
        let contents = try await CartService(db: req.db, core: services.core).contents(of: .user(user.requireID()))
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func clearCart(_ input: Operations.ClearCart.Input) async throws -> Operations.ClearCart.Output {
        let (req, user) = try await cartCaller()
        let contents = try await CartService(db: req.db, core: services.core).clear(for: .user(user.requireID()))
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func addToCart(_ input: Operations.AddToCart.Input) async throws -> Operations.AddToCart.Output {
        let (req, user) = try await cartCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let contents = try await CartService(db: req.db, core: services.core)
            .add(variantID: body.variantId, quantity: body.quantity, for: .user(user.requireID()), buyer: user)
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func setCartLineQuantity(_ input: Operations.SetCartLineQuantity.Input) async throws -> Operations.SetCartLineQuantity.Output {
        let (req, user) = try await cartCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let contents = try await CartService(db: req.db, core: services.core)
            .setQuantity(variantID: input.path.variantId, to: body.quantity, for: .user(user.requireID()), buyer: user)
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func removeCartLine(_ input: Operations.RemoveCartLine.Input) async throws -> Operations.RemoveCartLine.Output {
        let (req, user) = try await cartCaller()
        let contents = try await CartService(db: req.db, core: services.core).remove(variantID: input.path.variantId, for: .user(user.requireID()))
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func acceptCartChanges(_ input: Operations.AcceptCartChanges.Input) async throws -> Operations.AcceptCartChanges.Output {
        let (req, user) = try await cartCaller()
        let contents = try await CartService(db: req.db, core: services.core).acceptChanges(for: .user(user.requireID()))
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    private func cartCaller() async throws -> (Request, User) {
        let req = try request()
        return (req, try await req.requireCaller().user)
    }
}
