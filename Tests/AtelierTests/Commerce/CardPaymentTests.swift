import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: card payments through Stripe (a local fake), verified webhooks")
struct CardPaymentTests {
    struct PaidOrder: Decodable {
        struct Payment: Decodable { var clientSecret: String }
        var id: String
        var status: String
        var payment: Payment?
    }
    struct PaidCheckout: Decodable { var orders: [PaidOrder] }

    func withStripe(_ body: (TestApp, FakeStripe, ShopFixture) async throws -> Void) async throws {
        let stripe = try await FakeStripe.start()
        do {
            try await TestApp.with(adjust: { $0.stripe = stripe.settings }) { t in
                let shop = try await t.shopFixture(stockS: 5)
                let cards = TestApp.settings(["payByCard": "true"])
                #expect(try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: cards, token: shop.owner.accessToken).status == .ok)
                try await body(t, stripe, shop)
            }
        } catch {
            try await stripe.stop()
            throw error
        }
        try await stripe.stop()
    }

    func cardCheckout(_ t: TestApp, token: String, key: String = UUID().uuidString) async throws -> TestingHTTPResponse {
        try await t.send(
            .POST, "/api/v1/checkout", json: #"{"fulfilment":"pickup","paymentMethod":"card"}"#, token: token, headers: [("Idempotency-Key", key)])
    }

    func deliver(_ t: TestApp, _ hook: (body: String, signature: String)) async throws -> TestingHTTPResponse {
        try await t.send(
            .POST, "/api/v1/payments/stripe/webhook", json: hook.body, headers: [("Stripe-Signature", hook.signature)])
    }

    @Test("20 concurrent replays of a card checkout with one key: one order and one payment intent; the stock is held until paid")
    func oneIntent() async throws {
        try await withStripe { t, stripe, shop in
            let token = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: token).status == .ok)
            let key = UUID().uuidString
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 { group.addTask { _ = try await cardCheckout(t, token: token, key: key) } }
                try await group.waitForAll()
            }
            #expect(try await t.orderCount(of: shop.storeID) == 1)
            #expect(stripe.intentCount == 1)
            let replay = try await cardCheckout(t, token: token, key: key)
            let order = try replay.content.decode(PaidCheckout.self).orders[0]
            #expect(order.status == "pendingPayment")
            #expect(order.payment?.clientSecret == stripe.intent(forOrder: order.id)?["client_secret"])
            #expect(stripe.intent(forOrder: order.id)?["amount"] == "99800" && stripe.intent(forOrder: order.id)?["currency"] == "sek")
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 2 && variant.allocated == 0)
            // Asking for the payment again returns the same intent.
            let again = try await t.send(.POST, "/api/v1/orders/\(order.id)/payment", json: "{}", token: token)
            #expect(again.status == .ok)
            #expect(again.body.string.contains(order.payment!.clientSecret))
            #expect(stripe.intentCount == 1)
        }
    }

    @Test("a webhook with a wrong signature or 10 minutes old is a 400 and changes nothing; a genuine one pays the order once, a replay changes nothing")
    func webhooks() async throws {
        try await withStripe { t, stripe, shop in
            let token = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: token).status == .ok)
            let order = try await cardCheckout(t, token: token).content.decode(PaidCheckout.self).orders[0]
            let intentID = try #require(stripe.intent(forOrder: order.id)?["id"])
            let now = t.clock.now()

            let forged = FakeStripe.webhook(type: "payment_intent.succeeded", intentID: intentID, at: now, secret: "whsec_wrong")
            #expect(try await deliver(t, forged).status == .badRequest)
            let stale = FakeStripe.webhook(type: "payment_intent.succeeded", intentID: intentID, at: now.addingTimeInterval(-600))
            #expect(try await deliver(t, stale).status == .badRequest)
            var tampered = FakeStripe.webhook(type: "payment_intent.canceled", intentID: intentID, at: now)
            tampered.body = tampered.body.replacingOccurrences(of: "canceled", with: "succeeded")
            #expect(try await deliver(t, tampered).status == .badRequest)
            #expect(try await deliver(t, (forged.body, "")).status == .badRequest)
            for odd in ["t=nan,v1=00", "t=1e300,v1=00", "t=-9223372036854775808,v1=00", "v1=00"] {
                #expect(try await deliver(t, (forged.body, odd)).status == .badRequest, "\(odd)")
            }
            #expect(try await Order.find(UUID(uuidString: order.id)!, on: t.app.db)?.status == "pendingPayment")
            #expect(try await t.variantStock(shop.sizeS).held == 1)

            let genuine = FakeStripe.webhook(type: "payment_intent.succeeded", intentID: intentID, at: now)
            #expect(try await deliver(t, genuine).status == .ok)
            let paid = try #require(try await Order.find(UUID(uuidString: order.id)!, on: t.app.db))
            #expect(paid.status == "placed" && paid.stockState == "allocated" && paid.holdUntil == nil)
            var variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.allocated == 1)

            #expect(try await deliver(t, genuine).status == .ok)
            // A later "canceled" for the paid intent changes nothing either.
            #expect(try await deliver(t, FakeStripe.webhook(type: "payment_intent.canceled", intentID: intentID, at: now)).status == .ok)
            variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.allocated == 1)
            let events = try await OrderEvent.query(on: t.app.db).filter(\.$orderID == paid.id!).all()
            #expect(events.map(\.toStatus).sorted() == ["pendingPayment", "placed"])
        }
    }

    @Test("an unpaid card order expires after 30 minutes and its stock returns")
    func unpaidExpires() async throws {
        try await withStripe { t, _, shop in
            let token = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 3, token: token).status == .ok)
            #expect(try await cardCheckout(t, token: token).status == .created)
            #expect(try await t.variantStock(shop.sizeS).available == 2)
            t.clock.advance(by: 31 * 60)
            #expect(try await OrderService(db: t.app.db, core: t.app.core, live: t.app.atelier.live).expireDue() == 1)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.available == 5)
        }
    }
}
