import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: paying a card order on the card provider's own page (a local fake of Stripe Checkout)")
struct CardPaymentWebTests {
    let cards = CardPaymentTests()
    let forms = AccountsWebTests()

    @Test("a shopper chooses card at checkout, is sent to the payment page (the same one twice), comes back waiting, and the session's webhook places the order once")
    func payOnTheWeb() async throws {
        try await cards.withStripe { t, stripe, shop in
            let shopper = try await t.signUp(name: "Card Shopper")
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: shopper.accessToken).status == .ok)
            let cookie = try await CatalogWebTests().webSignIn(t, email: shopper.user.email ?? "")
            let cart = try await forms.openForm(t, "/cart", cookie: cookie)
            #expect(cart.html.contains(#"id="payment-card""#), "the store takes cards, so the cart offers them")
            let placed = try await forms.post(t, "/checkout", form: [
                "csrfToken": cart.csrf, "fulfilment": "pickup", "paymentMethod": "card", "attempt": UUID().uuidString,
            ], cookie: cart.cookie)
            #expect(placed.status == .seeOther)
            let order = try #require(try await Order.query(on: t.app.db).filter(\.$userID == UUID(uuidString: shopper.user.id)!).first())
            let receiptPath = "/orders/\(order.id!.idString)"
            #expect(placed.headers.first(name: .location) == receiptPath && order.state == .pendingPayment)

            let receipt = try await forms.openForm(t, receiptPath, cookie: cart.cookie)
            #expect(receipt.html.contains("pay by card to place it") && receipt.html.contains(#"href="\#(receiptPath)/pay""#))
            var pageURLs: [String] = []
            for _ in 0..<2 {
                let pay = try await t.send(.GET, "\(receiptPath)/pay", headers: [("Accept", "text/html"), ("Cookie", cart.cookie)])
                #expect(pay.status == .seeOther)
                pageURLs.append(pay.headers.first(name: .location) ?? "")
            }
            let session = try #require(stripe.session(forOrder: order.id!.idString))
            #expect(pageURLs == [session["url"]!, session["url"]!] && stripe.sessionCount == 1, "asking twice opens the same page, never a second charge")
            #expect(session["line_items[0][price_data][unit_amount]"] == "99800" && session["line_items[0][price_data][currency]"] == "sek")
            #expect(session["success_url"]?.hasSuffix("\(receiptPath)?payment=sent") == true && session["cancel_url"]?.hasSuffix(receiptPath) == true)
            #expect(session["payment_intent_data[metadata][order_id]"] == order.id!.idString)

            // Someone else's order has no payment page for them.
            let other = try await t.signUp(name: "Other")
            let otherCookie = try await CatalogWebTests().webSignIn(t, email: other.user.email ?? "")
            #expect(try await t.send(.GET, "\(receiptPath)/pay", headers: [("Accept", "text/html"), ("Cookie", otherCookie)]).status == .notFound)

            let back = try await forms.openForm(t, "\(receiptPath)?payment=sent", cookie: cart.cookie)
            #expect(back.html.contains(#"id="payment-sent""#) && !back.html.contains(#"id="pay-by-card""#))

            // A session completed but not yet paid (a bank transfer) places nothing; the paid one does, once.
            let now = t.clock.now()
            let sessionID = session["id"]!
            let unpaid = FakeStripe.sessionWebhook(sessionID: sessionID, intentID: "pi_hosted", orderID: order.id!.idString, paymentStatus: "unpaid", at: now)
            #expect(try await cards.deliver(t, unpaid).status == .ok)
            #expect(try await Order.find(order.id, on: t.app.db)?.state == .pendingPayment)
            let paid = FakeStripe.sessionWebhook(sessionID: sessionID, intentID: "pi_hosted", orderID: order.id!.idString, paymentStatus: "paid", at: now)
            #expect(try await cards.deliver(t, paid).status == .ok)
            #expect(try await Order.find(order.id, on: t.app.db)?.state == .placed)
            // The intent's own event for the same payment, and a replay of the session's, change nothing.
            let intentEvent = FakeStripe.webhook(type: "payment_intent.succeeded", intentID: "pi_hosted", at: now, orderID: order.id!.idString)
            #expect(try await cards.deliver(t, intentEvent).status == .ok)
            #expect(try await cards.deliver(t, paid).status == .ok)
            let events = try await OrderEvent.query(on: t.app.db).filter(\.$orderID == order.id!).all()
            #expect(events.filter { $0.toStatus == Order.Status.placed.rawValue }.count == 1)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.allocated == 2)

            // Paid: the receipt offers no payment, and the payment page is refused with a note.
            let done = try await forms.openForm(t, receiptPath, cookie: cart.cookie)
            #expect(!done.html.contains(#"id="pay-by-card""#) && done.html.contains("Placed"))
            let again = try await t.send(.GET, "\(receiptPath)/pay", headers: [("Accept", "text/html"), ("Cookie", cart.cookie)])
            #expect(again.status == .seeOther && again.headers.first(name: .location) == receiptPath && stripe.sessionCount == 1)
        }
    }
}
