import Vapor

/// `POST /api/v1/payments/stripe/webhook`: Stripe's events, verified against the raw body (so
/// the route sits outside the generated API, which would re-encode it). A refused signature or an
/// event older than five minutes is a 400 and changes nothing; a redelivered event is a 200 that
/// changes nothing.
enum PaymentWebhookRoute {
    static func register(_ app: Application) {
        app.on(.POST, "api", "v1", "payments", "stripe", "webhook", body: .collect(maxSize: "256kb")) { req async throws -> Response in
            guard let provider = req.atelier.payments else { throw Problem.notFound("payment provider") }
            let payload = req.body.data.map { Data(buffer: $0) } ?? Data()
            let event = try provider.verifyWebhook(
                payload: payload, signature: req.headers.first(name: "Stripe-Signature"), now: req.atelier.clock.now())
            try await CardPayments(db: req.db, core: req.core, live: req.atelier.live, provider: provider).handle(event)
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: #"{"received":true}"#))
        }
    }
}
