import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import NIOFoundationCompat

/// Stripe's PaymentIntents over its REST API, and its webhook signatures
/// (`Stripe-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "t.payload">`).
struct StripePayments: PaymentProvider {
    let settings: AppConfig.Stripe
    /// Older signed webhooks are refused, so a captured one cannot be replayed later.
    static let tolerance: TimeInterval = 5 * 60

    func createIntent(amountMinor: Int, currency: String, orderID: UUID, idempotencyKey: String) async throws -> PaymentIntent {
        guard let secretKey = settings.secretKey else { throw PaymentProviderUnavailable(description: "Stripe is not configured") }
        var request = HTTPClientRequest(url: settings.apiBase + "/v1/payment_intents")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(secretKey)")
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        // Stripe returns the first intent again for a repeated key: a retried checkout never pays twice.
        request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        let form = [
            ("amount", String(amountMinor)), ("currency", currency.lowercased()),
            ("automatic_payment_methods[enabled]", "true"), ("metadata[order_id]", orderID.idString),
        ]
        request.body = .bytes(ByteBuffer(string: form.map { "\(Self.formEscape($0.0))=\(Self.formEscape($0.1))" }.joined(separator: "&")))
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient.shared.execute(request, timeout: .seconds(15))
        } catch {
            throw PaymentProviderUnavailable(description: "Stripe could not be reached: \(error)")
        }
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok,
            let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let id = json["id"] as? String, let secret = json["client_secret"] as? String
        else { throw PaymentProviderUnavailable(description: "Stripe answered \(response.status.code)") }
        return PaymentIntent(id: id, clientSecret: secret)
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
        let outcome: PaymentEvent.Outcome
        switch type {
        case "payment_intent.succeeded": outcome = .succeeded
        case "payment_intent.payment_failed": outcome = .failed
        case "payment_intent.canceled": outcome = .canceled
        default: outcome = .other
        }
        return PaymentEvent(id: id, outcome: outcome, intentID: object?["id"] as? String)
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
