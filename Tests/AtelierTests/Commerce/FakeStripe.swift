import Crypto
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import Atelier

/// A local stand-in for the part of Stripe's API the server uses (`POST /v1/payment_intents`,
/// with Stripe's idempotency keys), plus signing webhooks the way Stripe does.
final class FakeStripe: Sendable {
    static let secretKey = "sk_test_fake"
    static let webhookSecret = "whsec_test_fake"

    let app: Application
    let port: Int
    /// Idempotency key → intent.
    private let intents: NIOLockedValueBox<[String: [String: String]]>

    var intentCount: Int { intents.withLockedValue { $0.count } }

    func intent(forOrder orderID: String) -> [String: String]? {
        intents.withLockedValue { $0.values.first { $0["metadata[order_id]"] == orderID.lowercased() } }
    }

    static func start() async throws -> FakeStripe {
        let app = try await Application.make(.testing)
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = 0
        let box = NIOLockedValueBox<[String: [String: String]]>([:])
        app.post("v1", "payment_intents") { req async throws -> Response in
            guard req.headers.bearerAuthorization?.token == secretKey else { return Response(status: .unauthorized) }
            let form = flatForm(req.body.string ?? "")
            let key = req.headers.first(name: "Idempotency-Key") ?? UUID().uuidString
            let intent = box.withLockedValue { intents -> [String: String] in
                if let existing = intents[key] { return existing }
                let id = "pi_\(intents.count + 1)_\(UUID().uuidString.prefix(8))"
                var intent = form
                intent["id"] = id
                intent["client_secret"] = "\(id)_secret_\(UUID().uuidString.prefix(8))"
                intents[key] = intent
                return intent
            }
            let body = try JSONSerialization.data(withJSONObject: [
                "id": intent["id"]!, "object": "payment_intent", "client_secret": intent["client_secret"]!,
                "amount": Int(intent["amount"] ?? "0") ?? 0, "currency": intent["currency"] ?? "", "status": "requires_payment_method",
            ])
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: body))
        }
        let sessions = NIOLockedValueBox<[String: [String: String]]>([:])
        app.post("v1", "checkout", "sessions") { req async throws -> Response in
            guard req.headers.bearerAuthorization?.token == secretKey else { return Response(status: .unauthorized) }
            let form = flatForm(req.body.string ?? "")
            let key = req.headers.first(name: "Idempotency-Key") ?? UUID().uuidString
            let port = req.application.http.server.shared.localAddress?.port ?? 0
            let session = sessions.withLockedValue { sessions -> [String: String] in
                if let existing = sessions[key] {
                    // Stripe refuses a repeated key with other parameters; so does the fake.
                    return existing.filter { $0.key != "id" && $0.key != "url" } == form ? existing : [:]
                }
                let id = "cs_test_\(sessions.count + 1)_\(UUID().uuidString.prefix(8))"
                var session = form
                session["id"] = id
                session["url"] = "http://127.0.0.1:\(port)/c/pay/\(id)"
                sessions[key] = session
                return session
            }
            guard let id = session["id"], let url = session["url"] else { return Response(status: .badRequest) }
            let body = try JSONSerialization.data(withJSONObject: ["id": id, "object": "checkout.session", "url": url])
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(data: body))
        }
        try app.server.start()
        let port = try #require(app.http.server.shared.localAddress?.port)
        return FakeStripe(app: app, port: port, intents: box, sessions: sessions)
    }

    /// Stripe's form keys have brackets (`metadata[order_id]`); read them flat, as Stripe does.
    private static func flatForm(_ body: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { form[parts[0]] = parts[1] }
        }
        return form
    }

    /// Idempotency key → checkout session (the form it was made with, its id and URL).
    private let sessions: NIOLockedValueBox<[String: [String: String]]>

    var sessionCount: Int { sessions.withLockedValue { $0.count } }

    func session(forOrder orderID: String) -> [String: String]? {
        sessions.withLockedValue { $0.values.first { $0["metadata[order_id]"] == orderID.lowercased() } }
    }

    private init(app: Application, port: Int, intents: NIOLockedValueBox<[String: [String: String]]>, sessions: NIOLockedValueBox<[String: [String: String]]>) {
        self.app = app
        self.port = port
        self.intents = intents
        self.sessions = sessions
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    var settings: AppConfig.Stripe {
        AppConfig.Stripe(secretKey: Self.secretKey, webhookSecret: Self.webhookSecret, apiBase: "http://127.0.0.1:\(port)", publishableKey: "pk_test_fake")
    }

    /// A Stripe event body and its `Stripe-Signature` header, signed at `time` (with `secret`).
    static func webhook(type: String, intentID: String, eventID: String = "evt_\(UUID().uuidString.prefix(12))", at time: Date,
                        secret: String = webhookSecret, orderID: String? = nil) -> (body: String, signature: String) {
        let metadata = orderID.map { #","metadata":{"order_id":"\#($0)"}"# } ?? ""
        return signed(#"{"id":"\#(eventID)","object":"event","type":"\#(type)","data":{"object":{"id":"\#(intentID)","object":"payment_intent"\#(metadata)}}}"#, at: time, secret: secret)
    }

    /// A checkout session's event, as Stripe sends it when the hosted page is done.
    static func sessionWebhook(type: String = "checkout.session.completed", sessionID: String, intentID: String, orderID: String, paymentStatus: String,
                               eventID: String = "evt_\(UUID().uuidString.prefix(12))", at time: Date) -> (body: String, signature: String) {
        signed(#"{"id":"\#(eventID)","object":"event","type":"\#(type)","data":{"object":{"id":"\#(sessionID)","object":"checkout.session","payment_intent":"\#(intentID)","payment_status":"\#(paymentStatus)","client_reference_id":"\#(orderID)","metadata":{"order_id":"\#(orderID)"}}}}"#, at: time, secret: webhookSecret)
    }

    private static func signed(_ body: String, at time: Date, secret: String) -> (body: String, signature: String) {
        let timestamp = Int(time.timeIntervalSince1970)
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return (body, "t=\(timestamp),v1=\(mac.map { String(format: "%02x", $0) }.joined())")
    }
}
