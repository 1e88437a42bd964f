import Fluent
import Foundation
import Logging
import SQLKit

/// Card orders: their payment intents, and what the provider's webhooks do to them.
struct CardPayments {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let provider: any PaymentProvider

    /// The order's payment intent, made once: the provider's idempotency key is the order's id,
    /// so a retry after a lost answer returns the same intent.
    func intent(for order: Order) async throws -> PaymentIntent {
        if let id = order.paymentIntentID, let secret = order.paymentClientSecret { return PaymentIntent(id: id, clientSecret: secret) }
        let orderID = try order.requireID()
        let intent = try await provider.createIntent(
            amountMinor: order.totalMinor, currency: order.currency, orderID: orderID, idempotencyKey: "order-\(orderID.idString)")
        try await core.writeTransaction(on: db) { tx in
            try await Order.query(on: tx).filter(\.$id == orderID)
                .set(\.$paymentIntentID, to: intent.id).set(\.$paymentClientSecret, to: intent.clientSecret).update()
        }
        order.paymentIntentID = intent.id
        order.paymentClientSecret = intent.clientSecret
        return intent
    }

    /// The card order the event is about: by the app's payment intent, else by the order id a
    /// hosted page's events carry (the intent of a hosted page is made by the provider).
    private static func order(of event: PaymentEvent, on tx: any Database) async throws -> Order? {
        if let intentID = event.intentID, let order = try await Order.query(on: tx).filter(\.$paymentIntentID == intentID).first() {
            return order
        }
        guard let orderID = event.orderID else { return nil }
        return try await Order.query(on: tx).filter(\.$id == orderID).filter(\.$paymentMethod == Order.Payment.card.rawValue).first()
    }

    /// The provider's payment page for a card order waiting for payment, open until the order's
    /// hold ends. Asking again returns the same page (the idempotency key is the order's).
    func hostedPayment(for order: Order, storeName: String, publicBaseURL: String) async throws -> URL {
        guard order.state == .pendingPayment, order.paymentMethod == Order.Payment.card.rawValue else {
            throw Problem.conflict("This order is not waiting for a card payment.", field: "orderId")
        }
        let orderID = try order.requireID()
        let page = "\(publicBaseURL)/orders/\(orderID.idString)"
        // No expiry of our own: a repeated idempotency key must carry the same parameters, and the
        // provider wants an expiry at least 30 minutes ahead of each call. Its page stays open a day;
        // a payment after the hold ends is logged for a refund (see `handle`).
        return try await provider.createHostedPayment(.init(
            amountMinor: order.totalMinor, currency: order.currency, orderID: orderID, description: "Order \(order.number) at \(storeName)",
            returnURL: page + "?payment=sent", cancelURL: page), idempotencyKey: "order-\(orderID.idString)-page")
    }

    /// Applies a verified event once: the event id is recorded in the same transaction as the
    /// order's move, so a redelivered event finds it and changes nothing.
    func handle(_ event: PaymentEvent) async throws {
        let now = core.clock.now()
        let customer: UUID? = try await core.writeTransaction(on: db) { tx in
            let fresh = try await tx.sql.raw("""
                INSERT INTO payment_events (event_id, received_at) VALUES (\(bind: event.id), \(bind: now))
                ON CONFLICT (event_id) DO NOTHING RETURNING event_id
                """).first()
            guard fresh != nil, let order = try await Self.order(of: event, on: tx) else { return nil }
            guard order.state == .pendingPayment else {
                if event.outcome == .succeeded, [.cancelled, .expired].contains(order.state) {
                    // Paid after the hold ended or the order was cancelled: the money must go back. Refunds
                    // through the provider are not built yet, so this is logged for the team to act on.
                    Logger(label: "atelier.payments").error(
                        "Payment \(event.intentID ?? event.id) succeeded for order \(order.id!) which is \(order.status): refund it in Stripe.")
                }
                // Otherwise already paid: a hosted page sends two events for one payment (its session's and its intent's).
                return nil
            }
            switch event.outcome {
            case .succeeded:
                _ = try await OrderMove.apply(order, to: .placed, actorID: nil, reason: nil, idChecked: false, on: tx, now: now)
            case .canceled:
                _ = try await OrderMove.apply(
                    order, to: .cancelled, actorID: nil, reason: "The card payment was cancelled.", idChecked: false, on: tx, now: now)
            case .failed, .other:
                return nil
            }
            return order.userID
        }
        if let customer { await InboxService.announce(.orderUpdated, to: customer, by: nil, live: live) }
    }
}
