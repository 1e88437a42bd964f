import AtelierKit
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import Atelier

private func myOrderIDs(_ session: AtelierSession) async throws -> [String] {
    try await session.client.listMyOrders().ok.body.json.items.map(\.id)
}

/// The error `body` throws, or nil.
private func commerceError(_ body: () async throws -> Any) async -> CommerceError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? CommerceError
    }
}

/// URLSession underneath; answers the first `busy` checkouts itself as the server does while an
/// earlier request with the key is running, and records every checkout's key and status.
private final class BusyServerTransport: ClientTransport, Sendable {
    private let inner = URLSessionAPITransport()
    private let state: Locked<(busy: Int, keys: [String], statuses: [Int])>

    init(busy: Int = 0) { state = Locked((busy, [], [])) }

    var checkoutKeys: [String] { state.value.keys }
    var checkoutStatuses: [Int] { state.value.statuses }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == "checkout" else { return try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID) }
        let answerBusy = state.mutate { state -> Bool in
            state.keys.append(request.headerFields[HTTPField.Name("Idempotency-Key")!] ?? "")
            state.busy -= 1
            return state.busy >= 0
        }
        guard answerBusy else {
            let (response, body) = try await inner.send(request, body: body, baseURL: baseURL, operationID: operationID)
            state.mutate { $0.statuses.append(response.status.code) }
            return (response, body)
        }
        let problem = #"{"type":"https://atelier.dev/problems/conflict","title":"Conflict","status":409,"detail":"A request with this Idempotency-Key is still being handled."}"#
        return (HTTPResponse(status: .conflict, headerFields: [.contentType: "application/problem+json"]), HTTPBody(problem))
    }
}

@Suite("Cart and checkout through AtelierKit against a live server")
struct CartAndCheckoutTests {
    @Test("the cart API adds, sets, removes, clears and refuses more than is available")
    func cartOperations() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server, stockS: 5, stockM: 2)
            let cart = try await shopper(server).cart
            #expect(try await cart.current().itemCount == 0)
            #expect(try await cart.add(variantID: shop.sizeS).itemCount == 1)
            #expect(try await cart.add(variantID: shop.sizeS, quantity: 2).itemCount == 3)
            #expect(try await cart.setQuantity(variantID: shop.sizeS, 4).itemCount == 4)
            let both = try await cart.add(variantID: shop.sizeM)
            #expect(both.itemCount == 5 && both.stores.first?.lines.count == 2)
            #expect(try await cart.remove(variantID: shop.sizeM).itemCount == 4)
            let tooMany = await commerceError { try await cart.add(variantID: shop.sizeM, quantity: 3) }
            guard case .invalid(let problem)? = tooMany else { throw Unexpected("expected .invalid, got \(String(describing: tooMany))") }
            #expect(problem.status == 422 && !(problem.errors ?? []).isEmpty)
            #expect(try await cart.clear().itemCount == 0)
        }
    }

    @Test("one attempt submitted twice, then 5 times at once: exactly one order, every call answers it")
    func oneAttemptOneOrder() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server)
            let transport = BusyServerTransport()
            let session = try await shopper(server, transport: transport)
            _ = try await session.cart.add(variantID: shop.sizeS, quantity: 2)
            let attempt = CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore)
            #expect(attempt.idempotencyKey == attempt.idempotencyKey.lowercased() && UUID(uuidString: attempt.idempotencyKey) != nil)

            let first = try await attempt.submit()
            #expect(first.count == 1 && first[0].lines.first?.quantity == 2 && first[0].status == .placed)
            #expect(try await attempt.submit().map(\.id) == first.map(\.id))
            let concurrent = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<5 { group.addTask { try await attempt.submit().map(\.id) } }
                return try await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            #expect(concurrent == Array(repeating: first.map(\.id), count: 5))
            #expect(transport.checkoutStatuses == [201])  // the attempt kept the orders
            #expect(try await myOrderIDs(session) == first.map(\.id))
            #expect(try await shop.orderIDs() == first.map(\.id))
            #expect(try await session.cart.current().itemCount == 0)
        }
    }

    @Test("5 copies of one attempt (one key) racing from a cold start: one order; those the server finds busy wait and get it")
    func oneKeyRacing() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server)
            let transport = BusyServerTransport()
            let session = try await shopper(server, transport: transport)
            _ = try await session.cart.add(variantID: shop.sizeS)
            let key = UUID().uuidString.lowercased()
            let answers = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<5 {
                    let copy = CheckoutAttempt(client: session.client, fulfilment: .pickup, paymentMethod: .payAtStore, idempotencyKey: key)
                    group.addTask { try await copy.submit().map(\.id) }
                }
                return try await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            #expect(Set(answers).count == 1 && answers.count == 5)
            // Each request got the order (made or replayed) or a 409 while the first was running.
            #expect(transport.checkoutStatuses.filter { $0 == 201 }.count == 5)
            #expect(transport.checkoutStatuses.allSatisfy { $0 == 201 || $0 == 409 })
            #expect(try await shop.orderIDs() == answers[0])
        }
    }

    @Test("a 409 'still being handled' is retried with the same key until the order comes")
    func busyIsRetried() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server)
            let transport = BusyServerTransport(busy: 2)
            let session = try await shopper(server, transport: transport)
            _ = try await session.cart.add(variantID: shop.sizeS)
            let attempt = CheckoutAttempt(session: session, fulfilment: .reserve, paymentMethod: .payAtStore)
            let orders = try await attempt.submit()
            #expect(orders.count == 1 && orders[0].fulfilment == .reserve)
            #expect(transport.checkoutKeys == Array(repeating: attempt.idempotencyKey, count: 3))

            // Busy through every retry: a distinct error, and nothing was ordered by it.
            let stuck = BusyServerTransport(busy: 10)
            let other = try await shopper(server, transport: stuck)
            _ = try await other.cart.add(variantID: shop.sizeS)
            let impatient = CheckoutAttempt(
                client: other.client, fulfilment: .pickup, paymentMethod: .payAtStore, busyRetryDelays: [.milliseconds(1), .milliseconds(1)])
            #expect(await commerceError { try await impatient.submit() } == .stillBeingHandled)
            #expect(stuck.checkoutKeys.count == 3 && Set(stuck.checkoutKeys) == [impatient.idempotencyKey])
            #expect(try await shop.orderIDs() == orders.map(\.id))
        }
    }

    @Test("after an order, a new attempt orders again only once the cart has lines again; an old attempt only replays")
    func newAttemptNewOrder() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server)
            let session = try await shopper(server)
            _ = try await session.cart.add(variantID: shop.sizeS)
            let first = CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore)
            let firstOrders = try await first.submit()

            let empty = CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore)
            let refused = await commerceError { try await empty.submit() }
            #expect(refused?.problem?.status == 422 && refused?.problem?.message(for: "cart") != nil)

            _ = try await session.cart.add(variantID: shop.sizeS)
            // A refused attempt stays refused; the server answers the first key with the first order.
            #expect(await commerceError { try await empty.submit() } == refused)
            let resumed = CheckoutAttempt(client: session.client, fulfilment: .pickup, paymentMethod: .payAtStore, idempotencyKey: first.idempotencyKey)
            #expect(try await resumed.submit().map(\.id) == firstOrders.map(\.id))
            #expect(try await myOrderIDs(session) == firstOrders.map(\.id))

            let second = try await CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore).submit()
            #expect(second.count == 1 && second[0].id != firstOrders[0].id)
            #expect(Set(try await shop.orderIDs()) == Set((firstOrders + second).map(\.id)))
        }
    }

    @Test("a collected line goes into the closet through the SDK, once; a second time is a 409")
    func boughtPieceIntoCloset() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server)
            let session = try await shopper(server)
            _ = try await session.cart.add(variantID: shop.sizeS)
            let order = try await CheckoutAttempt(session: session, fulfilment: .pickup, paymentMethod: .payAtStore).submit()[0]
            for status: Components.Schemas.OrderStatus in [.confirmed, .readyForPickup, .completed] {
                _ = try await shop.owner.client.transitionStoreOrder(
                    path: .init(storeId: shop.storeID, orderId: order.id), body: .json(.init(to: status))).ok
            }
            let line = try await session.client.getOrder(path: .init(orderId: order.id)).ok.body.json.lines[0]
            let item = try await ClosetUploader(session: session).add(orderLine: line.id)
            #expect(item.orderLineId == line.id && item.price?.amount == 49_900)
            await #expect {
                _ = try await ClosetUploader(session: session).add(orderLine: line.id)
            } throws: { error in
                guard case AtelierError.rejected(let problem) = error else { return false }; let (status, fields) = (problem.status, problem.fields)
                return status == 409 && fields == ["orderLineId"]
            }
        }
    }

    @Test("a line sold out meanwhile is a 409 naming it, nothing is ordered; a changed price likewise until accepted")
    func soldOutAndRepriced() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server, stockS: 10, stockM: 1)
            let (late, early) = (try await shopper(server), try await shopper(server))
            _ = try await late.cart.add(variantID: shop.sizeS)
            _ = try await late.cart.add(variantID: shop.sizeM)
            _ = try await early.cart.add(variantID: shop.sizeM)
            _ = try await CheckoutAttempt(session: early, fulfilment: .pickup, paymentMethod: .payAtStore).submit()

            let attempt = CheckoutAttempt(session: late, fulfilment: .pickup, paymentMethod: .payAtStore)
            let soldOut = await commerceError { try await attempt.submit() }
            guard case .conflict(let problem)? = soldOut else { throw Unexpected("expected .conflict, got \(String(describing: soldOut))") }
            #expect(problem.unavailableVariantIDs == [shop.sizeM] && problem.repricedVariantIDs.isEmpty)
            #expect(problem.message(for: "lines.\(shop.sizeM)")?.contains("only 0") == true)
            #expect(try await myOrderIDs(late).isEmpty)

            // The shop raises the price; the shopper drops the sold-out size.
            let product = try #require(try await Product.find(shop.productID, on: server.app.db))
            product.priceMinor = 59_900
            try await product.update(on: server.app.db)
            _ = try await late.cart.remove(variantID: shop.sizeM)
            let repriced = await commerceError { try await CheckoutAttempt(session: late, fulfilment: .pickup, paymentMethod: .payAtStore).submit() }
            #expect(repriced?.problem?.repricedVariantIDs == [shop.sizeS] && repriced?.problem?.unavailableVariantIDs == [])

            let accepted = try await late.cart.acceptChanges()
            #expect(accepted.stores.first?.lines.first?.issues.isEmpty == true)
            #expect(await commerceError { try await attempt.submit() } == soldOut)  // the old attempt keeps its answer
            let orders = try await CheckoutAttempt(session: late, fulfilment: .pickup, paymentMethod: .payAtStore).submit()
            #expect(orders.count == 1 && orders[0].total.amount == 59_900 && orders[0].lines.map(\.variantId) == [shop.sizeS])
        }
    }

    /// What the cart screen shows now: items, whether it shows an error, the orders it placed.
    @MainActor
    private func shown(_ cart: CartScreen) -> (items: Int, failed: Bool, orders: [String]) {
        (cart.itemCount, cart.activity.error != nil, cart.orders.map(\.id))
    }

    @Test("the shop app's screens alone: the store's catalogue page by page, the cart, checkout (a refusal changes nothing), the order in the list")
    func screens() async throws {
        try await LiveServer.with { server in
            let shop = try await Shop.open(on: server, stockS: 5, stockM: 1)
            let session = try await shopper(server)
            let product = shop.productID.uuidString.lowercased()

            let catalogue = await PagedListScreen(session.catalog.listStoreProductsItems(storeId: shop.storeID, query: .init(limit: 1)))
            await catalogue.loadMore()
            #expect(await catalogue.items.map(\.id) == [product])
            await catalogue.loadMore()
            let more = await catalogue.hasMore, listed = await catalogue.items.count
            #expect(!more && listed == 1, "one product, and then nothing more")

            let cart = await CartScreen(session: session)
            await cart.load()
            #expect(await shown(cart).items == 0)
            await cart.add(variantID: shop.sizeS, quantity: 2)
            var now = await shown(cart)
            #expect(now.items == 2 && !now.failed)
            await cart.add(variantID: shop.sizeM, quantity: 5)
            now = await shown(cart)
            #expect(now.failed && now.items == 2, "more than the one in stock: refused, the cart as it was")

            await cart.checkout(fulfilment: .delivery, paymentMethod: .payAtStore)
            now = await shown(cart)
            #expect(now.failed && now.orders.isEmpty && now.items == 2, "the shop does not deliver: nothing ordered")
            await cart.checkout(fulfilment: .pickup, paymentMethod: .payAtStore)
            now = await shown(cart)
            #expect(!now.failed && now.orders.count == 1 && now.items == 0)
            #expect(await cart.orders.first?.pickupCode?.count == 6, "the code to show at the counter")

            let orders = await PagedListScreen(session.commerce.listMyOrdersItems())
            await orders.loadMore()
            #expect(await orders.items.map(\.id) == now.orders)
            #expect(await orders.items.first?.status == .placed)
            #expect(try await shop.orderIDs() == now.orders, "the store sees the one order")
        }
    }
}
