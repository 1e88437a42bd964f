import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOFoundationCompat

/// Stripe's PaymentIntents (for apps) and Checkout Sessions (for browsers) over its REST API, and
/// its webhook signatures
/// (`Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "t.payload">`).
struct StripePayments: PaymentProvider {
    let settings: AppConfig.Stripe
    /// Older signed webhooks are refused, so a captured one cannot be replayed later.
    static let tolerance: TimeInterval = 5 * 60

    func createIntent(amountMinor: Int, currency: String, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
        let json = try await post("/v1/payment_intents", [
            ("amount", String(amountMinor)), ("currency", currency.lowercased()),
            ("automatic_payment_methods[enabled]", "true"), ("metadata[order_id]", orderID.idString),
        ], idempotencyKey: idempotencyKey)
        guard let id = json["id"] as? String, let secret = json["client_secret"] as? String else {
            throw PaymentProviderUnavailable(description: "Stripe's payment intent has no id or client secret")
        }
        return PaymentIntent(id: id, clientSecret: secret)
    }

    /// A Checkout Session: Stripe's own page takes the card. The order id rides in the session's and
    /// its payment intent's metadata, so either event finds the order.
    func createHostedPayment(_ payment: HostedPaymentRequest, idempotencyKey: String) async throws -> URL {
        let json = try await post("/v1/checkout/sessions", [
            ("mode", "payment"), ("success_url", payment.returnURL), ("cancel_url", payment.cancelURL),
            ("client_reference_id", payment.orderID.idString), ("metadata[order_id]", payment.orderID.idString),
            ("payment_intent_data[metadata][order_id]", payment.orderID.idString),
            ("line_items[0][quantity]", "1"), ("line_items[0][price_data][currency]", payment.currency.lowercased()),
            ("line_items[0][price_data][unit_amount]", String(payment.amountMinor)),
            ("line_items[0][price_data][product_data][name]", payment.description),
        ], idempotencyKey: idempotencyKey)
        guard let raw = json["url"] as? String, let url = URL(string: raw) else {
            throw PaymentProviderUnavailable(description: "Stripe's checkout session has no URL")
        }
        return url
    }

    /// A form POST to Stripe's API. Stripe returns the first answer again for a repeated
    /// idempotency key, so a retried checkout or a second click never pays twice.
    private func post(_ path: String, _ form: [(String, String)], idempotencyKey: String) async throws -> [String: Any] {
        guard let secretKey = settings.secretKey else { throw PaymentProviderUnavailable(description: "Stripe is not configured") }
        var request = HTTPClientRequest(url: settings.apiBase + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(secretKey)")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        request.body = .bytes(ByteBuffer(string: form.map { "\(Self.formEscape($0.0))=\(Self.formEscape($0.1))" }.joined(separator: "&")))
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(15))
        } catch {
            throw PaymentProviderUnavailable(description: "Stripe could not be reached: \(error)")
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok, let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            throw PaymentProviderUnavailable(description: "Stripe answered \(response.status.code)")
        }
        return json
    }

    func verifyWebhook(payload: Data, signature: String?, now: Date) throws -> PaymentEvent {
        guard let secret = settings.webhookSecret else { throw Problem(.notFound, detail: "Card payments are not configured.") }
        guard let signature else { throw Self.refused("The Stripe-Signature header is missing.") }
        var timestamp: Int?
        var candidates: [String] = []
        for part in signature.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            // Whole seconds only: "nan" or "1e300" must be a 400, not a crash.
            if pair[0] == "t" { timestamp = Int(pair[1]) }
            if pair[0] == "v1" { candidates.append(pair[1].lowercased()) }
        }
        guard let timestamp, !candidates.isEmpty else { throw Self.refused("The Stripe-Signature header is malformed.") }
        var signed = Data("\(timestamp).".utf8)
        signed.append(payload)
        let expected = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        let expectedHex = Hex.lowercase(expected)
        guard candidates.contains(where: { Self.constantTimeEqual($0, expectedHex) }) else {
            throw Self.refused("The webhook signature does not match.")
        }
        guard abs(now.timeIntervalSince1970 - TimeInterval(timestamp)) <= Self.tolerance else {
            throw Self.refused("The webhook is older than five minutes.")
        }
        guard let json = try? JSONSerialization.jsonObject(with: payload) as? [String: Any], let id = json["id"] as? String,
            let type = json["type"] as? String
        else { throw Self.refused("The webhook body is not a Stripe event.") }
        let object = (json["data"] as? [String: Any])?["object"] as? [String: Any]
        let orderID = ((object?["metadata"] as? [String: Any])?["order_id"] as? String).flatMap(UUID.init(uuidString:))
        switch type {
        case "payment_intent.succeeded": return PaymentEvent(id: id, outcome: .succeeded, intentID: object?["id"] as? String, orderID: orderID)
        case "payment_intent.payment_failed": return PaymentEvent(id: id, outcome: .failed, intentID: object?["id"] as? String, orderID: orderID)
        case "payment_intent.canceled": return PaymentEvent(id: id, outcome: .canceled, intentID: object?["id"] as? String, orderID: orderID)
        // A hosted page's session: "completed" is paid only when its payment_status says so (a bank
        // transfer completes the session unpaid and succeeds later).
        case "checkout.session.completed", "checkout.session.async_payment_succeeded":
            let paid = object?["payment_status"] as? String == "paid"
            return PaymentEvent(id: id, outcome: paid ? .succeeded : .other, intentID: object?["payment_intent"] as? String, orderID: orderID)
        case "checkout.session.async_payment_failed":
            return PaymentEvent(id: id, outcome: .failed, intentID: object?["payment_intent"] as? String, orderID: orderID)
        default:
            return PaymentEvent(id: id, outcome: .other, intentID: object?["id"] as? String, orderID: orderID)
        }
    }

    private static func refused(_ detail: String) -> Problem {
        Problem(.badRequest, type: "https://atelier.dev/problems/webhook-refused", title: "Webhook refused", detail: detail)
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func formEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
