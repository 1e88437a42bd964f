import Foundation

/// A card payment service. Card data never reaches this server: the provider makes a payment
/// intent whose client secret the app uses with the provider's own SDK, and tells us the outcome
/// through signed webhooks.
protocol PaymentProvider: Sendable {
    /// Creates (or, for the same `idempotencyKey`, returns again) a payment intent.
    func createIntent(amountMinor: Int, currency: String, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent
    /// Creates (or, for the same `idempotencyKey`, returns again) a payment page of the provider's
    /// own, for browsers: our pages load no script of the provider's (the CSP allows only ours), so
    /// the shopper types the card there and comes back to `returnURL`; the webhook says when it is paid.
    func createHostedPayment(_ payment: HostedPaymentRequest, idempotencyKey: String) async throws -> URL
    /// Checks a webhook's signature and age, and reads its event.
    func verifyWebhook(payload: Data, signature: String?, now: Date) throws -> PaymentEvent
}

struct PaymentIntent: Sendable, Equatable {
    var id: String
    var clientSecret: String
}

struct HostedPaymentRequest: Sendable, Equatable {
    var amountMinor: Int
    var currency: String
    var orderID: UUID
    /// What the payment page names, for example "Order 12 at Atelier Nord".
    var description: String
    /// Where the shopper lands after paying, and after giving up.
    var returnURL: String
    var cancelURL: String
}

struct PaymentEvent: Sendable, Equatable {
    /// `failed` leaves the order waiting (the shopper may try another card until the hold ends);
    /// `canceled` ends it.
    enum Outcome: Sendable, Equatable { case succeeded, failed, canceled, other }

    var id: String
    var outcome: Outcome
    var intentID: String?
    /// The order the payment was made for, when the event says (a hosted page's events do).
    var orderID: UUID? = nil
}

/// The provider could not be reached or refused the request: a 503 to the caller, who may retry.
struct PaymentProviderUnavailable: ServiceUnavailable, CustomStringConvertible {
    var description: String
    var unavailableService: String { "The card payment service" }
}
