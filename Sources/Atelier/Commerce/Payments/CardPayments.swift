import Fluent
import Foundation
import Logging
import SQLKit

/// Card orders: their payment intents, and what the provider's webhooks do to them.
struct CardPayments {
    let db: any Database
    let services: AtelierServices
    let provider: any PaymentProvider

    /// The order's payment intent, made once: the provider's idempotency key is the order's id,
    /// so a retry after a lost answer returns the same intent.
    func intent(for order: Order) async throws -> PaymentIntent {
        if let id = order.paymentIntentID, let secret = order.paymentClientSecret { return PaymentIntent(id: id, clientSecret: secret) }
        let orderID = try order.requireID()
        let intent = try await provider.createIntent(
            amountMinor: order.totalMinor, currency: order.currency, orderID: orderID, idempotencyKey: "order-\(orderID.idString)")
        try await services.writeTransaction(on: db) { tx in
            try await Order.query(on: tx).filter(\.$id == orderID)
                .set(\.$paymentIntentID, to: intent.id).set(\.$paymentClientSecret, to: intent.clientSecret).update()
        }
        order.paymentIntentID = intent.id
        order.paymentClientSecret = intent.clientSecret
        return intent
    }

    /// Applies a verified event once: the event id is recorded in the same transaction as the
    /// order's move, so a redelivered event finds it and changes nothing.
    func handle(_ event: PaymentEvent) async throws {
        let now = services.clock.now()
        let customer: UUID? = try await services.writeTransaction(on: db) { tx in
            let fresh = try await (tx as! any SQLDatabase).raw("""
                INSERT INTO payment_events (event_id, received_at) VALUES (\(bind: event.id), \(bind: now))
                ON CONFLICT (event_id) DO NOTHING RETURNING event_id
                """).first()
            guard fresh != nil, let intentID = event.intentID,
                let order = try await Order.query(on: tx).filter(\.$paymentIntentID == intentID).first()
            else { return nil }
            guard order.state == .pendingPayment else {
                if event.outcome == .succeeded {
                    // Paid after the hold ended or the order was cancelled: the money must go back. Refunds
                    // through the provider are not built yet, so this is logged for the team to act on.
                    Logger(label: "atelier.payments").error(
                        "Payment \(intentID) succeeded for order \(order.id!) which is \(order.status): refund it in Stripe.")
                }
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
        if let customer { await InboxService.announce(.orderUpdated, to: customer, by: nil, live: services.live) }
    }
}
