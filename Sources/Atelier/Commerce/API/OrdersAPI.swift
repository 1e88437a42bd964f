import AtelierServerAPI
import Fluent
import Foundation
import Vapor

/// Checkout and the shopper's orders.
extension APIHandler {
    func checkout(_ input: Operations.Checkout.Input) async throws -> Operations.Checkout.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        // The key is required by the contract; `IdempotencyMiddleware` replays a retry before this runs.
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let address = body.deliveryAddress.map {
            CheckoutRequest.Address(
                name: $0.name, street: $0.street, postalCode: $0.postalCode, city: $0.city, phone: $0.phone, lat: $0.lat, lng: $0.lng)
        }
        let checkout = try CheckoutRequest(
            fulfilment: Order.Fulfilment(rawValue: body.fulfilment.rawValue)!, payment: Order.Payment(rawValue: body.paymentMethod.rawValue)!,
            discountCode: body.discountCode, address: address)
        let orders = try await CheckoutService(db: req.db, core: services.core, live: services.live, mailOutbox: services.mailOutbox, payments: services.payments).checkout(checkout, by: user)
        return .created(.init(body: .json(.init(orders: try await CommerceMapping.orders(orders, withCustomers: false, payment: services.config.stripe, on: req.db)))))
    }

    func listMyOrders(_ input: Operations.ListMyOrders.Input) async throws -> Operations.ListMyOrders.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let page = try PageRequest(limit: input.query.limit, cursor: input.query.cursor)
        let orders = try await OrderService(db: req.db, core: services.core, live: services.live).orders(of: user, page: page)
        let items = try await CommerceMapping.orders(orders.items, withCustomers: false, payment: services.config.stripe, on: req.db)
        return .ok(.init(body: .json(.init(items: items, nextCursor: orders.nextCursor))))
    }

    func getOrder(_ input: Operations.GetOrder.Input) async throws -> Operations.GetOrder.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let order = try await OrderService(db: req.db, core: services.core, live: services.live).visibleOrder(input.path.orderId, to: user)
        let mine = order.userID == user.id
        let body = try await CommerceMapping.orders([order], withCustomers: !mine, payment: mine ? services.config.stripe : nil, on: req.db)[0]
        return .ok(.init(body: .json(body)))
    }

    func cancelOrder(_ input: Operations.CancelOrder.Input) async throws -> Operations.CancelOrder.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let orders = OrderService(db: req.db, core: services.core, live: services.live)
        let order = try await orders.visibleOrder(input.path.orderId, to: user)
        guard order.userID == user.id else { throw Problem.notFound("order") }
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType) }
        let reason = body.reason
        let cancelled = try await orders.transition(order.requireID(), to: .cancelled, by: .shopper(user.requireID()), reason: reason)
        return .ok(.init(body: .json(try await CommerceMapping.orders([cancelled], withCustomers: false, on: req.db)[0])))
    }

    func reorder(_ input: Operations.Reorder.Input) async throws -> Operations.Reorder.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let order = try await OrderService(db: req.db, core: services.core, live: services.live).visibleOrder(input.path.orderId, to: user)
        guard order.userID == user.id else { throw Problem.notFound("order") }
        let contents = try await CartService(db: req.db, core: services.core).reorder(order, for: user)
        return .ok(.init(body: .json(CommerceMapping.cart(contents))))
    }

    func startOrderPayment(_ input: Operations.StartOrderPayment.Input) async throws -> Operations.StartOrderPayment.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        let order = try await OrderService(db: req.db, core: services.core, live: services.live).visibleOrder(input.path.orderId, to: user)
        guard order.userID == user.id else { throw Problem.notFound("order") }
        guard order.state == .pendingPayment, let provider = services.payments else {
            throw Problem.conflict("Order \(order.number) is not waiting for a card payment.")
        }
        // An unreachable provider is a 503 with Retry-After (`TemporaryFailure`).
        let intent = try await CardPayments(db: req.db, core: services.core, live: services.live, provider: provider).intent(for: order)
        return .ok(.init(body: .json(.init(
            provider: .stripe, clientSecret: intent.clientSecret, publishableKey: services.config.stripe.publishableKey, payBefore: order.holdUntil))))
    }
}
