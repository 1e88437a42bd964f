import Crypto
import Fluent
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting

@testable import Atelier

/// A browser's push service on a local https server: keeps what it is sent, answers as scripted.
final class FakePushService: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: HTTPHeaders
        var body: Data
    }

    let port: Int
    let certificatePEM: String
    private let app: Application
    private let state = NIOLockedValueBox<(received: [Received], script: [HTTPResponseStatus])>(([], []))

    var received: [Received] { state.withLockedValue { $0.received } }
    func answer(_ statuses: HTTPResponseStatus...) { state.withLockedValue { $0.script += statuses } }

    private init(app: Application, port: Int, certificatePEM: String) {
        (self.app, self.port, self.certificatePEM) = (app, port, certificatePEM)
    }

    static func start() async throws -> FakePushService {
        let (app, certificatePEM) = try await LocalTLSServer.make(http2Only: false)
        let box = NIOLockedValueBox<FakePushService?>(nil)
        app.on(.POST, "push", ":id", body: .collect(maxSize: "64kb")) { req async throws -> Response in
            guard let service = box.withLockedValue({ $0 }) else { throw Abort(.serviceUnavailable) }
            let status = service.state.withLockedValue { state -> HTTPResponseStatus in
                state.received.append(Received(path: req.url.path, headers: req.headers, body: req.body.data.map { Data(buffer: $0) } ?? Data()))
                return state.script.isEmpty ? .created : state.script.removeFirst()
            }
            return Response(status: status)
        }
        let port = try await LocalTLSServer.start(app)
        let service = FakePushService(app: app, port: port, certificatePEM: certificatePEM)
        box.withLockedValue { $0 = service }
        return service
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }
}

@Suite("Notifications: Web Push to a browser's push service")
struct WebPushDeliveryTests {
    @Test("a push reaches the push service encrypted for the subscription (the test decrypts it with the browser's private key), with a VAPID token for the service's origin; a 410 removes the subscription; an http endpoint is refused")
    func delivery() async throws {
        let service = try await FakePushService.start()
        let vapid = P256.Signing.PrivateKey()
        do {
            try await TestApp.with(adjust: {
                $0.webPush.vapidPrivateKeyPEM = vapid.pemRepresentation
                $0.webPush.subject = "mailto:ops@atelier.dev"
                $0.apns.trustedRootsPEM = service.certificatePEM
            }) { t in
                let person = try await t.signUp(name: "Bea")
                let browser = P256.KeyAgreement.PrivateKey()
                let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
                let endpoint = "https://localhost:\(service.port)/push/subscription-1"
                let json = """
                    {"endpoint":"\(endpoint)","keys":{"p256dh":"\(Base64URL.encode(browser.publicKey.x963Representation))","auth":"\(Base64URL.encode(auth))"}}
                    """
                let registered = try await t.send(.PUT, "/api/v1/me/web-push-subscription", json: json, token: person.accessToken)
                #expect(registered.status == .ok, "\(registered.body.string)")

                let recipient = UUID(uuidString: person.user.id)!
                try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                    try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: "Issue 12 is out",
                        link: "atelier://magazine/issues/12", webPath: "/magazine"), on: tx, now: t.clock.now())
                }
                try await t.runJobs()
                let push = try #require(service.received.first)
                #expect(service.received.count == 1 && push.path == "/push/subscription-1")
                #expect(push.headers.first(name: "content-encoding") == "aes128gcm" && push.headers.first(name: "ttl") == "86400")
                let plaintext = try BrowserPushInbox.decrypt(push.body, privateKey: browser, auth: auth)
                let message = try JSONSerialization.jsonObject(with: plaintext) as? [String: Any]
                #expect(message?["body"] as? String == "Issue 12 is out" && message?["link"] as? String == "atelier://magazine/issues/12")
                #expect(message?["badge"] as? Int == 1)

                // VAPID: the token is ours, for this push service's origin, with our key alongside.
                let authorization = try #require(push.headers.first(name: "authorization"))
                let parts = authorization.dropFirst("vapid ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let token = try #require(parts.first { $0.hasPrefix("t=") }).dropFirst(2)
                let key = try #require(parts.first { $0.hasPrefix("k=") }).dropFirst(2)
                #expect(String(key) == Base64URL.encode(vapid.publicKey.x963Representation))
                let keys = JWTKeyCollection()
                await keys.add(ecdsa: try ES256PublicKey(pem: vapid.publicKey.pemRepresentation))
                let claims = try await keys.verify(String(token), as: VAPIDSigner.Claims.self)
                #expect(claims.aud.value == ["https://localhost:\(service.port)"] && claims.sub.value == "mailto:ops@atelier.dev")
                #expect(claims.exp.value.timeIntervalSince(t.clock.now()) == VAPIDSigner.lifetime)

                // The browser withdrew the subscription: the push service says 410, and it is forgotten.
                service.answer(.gone)
                t.clock.advance(by: 1)
                try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                    try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: "Issue 13 is out",
                        link: "atelier://magazine/issues/13", webPath: "/magazine"), on: tx, now: t.clock.now())
                }
                try await t.runJobs()
                #expect(try await Device.query(on: t.app.db).filter(\.$token == endpoint).count() == 0)

                let plain = try await t.send(.PUT, "/api/v1/me/web-push-subscription",
                    json: #"{"endpoint":"http://push.example/x","keys":{"p256dh":"AAAA","auth":"short"}}"#, token: person.accessToken)
                #expect(plain.status == .unprocessableEntity)
                #expect(Set(try plain.problem().fields) == ["endpoint", "keys.p256dh", "keys.auth"])
            }
        } catch {
            try await service.stop()
            throw error
        }
        try await service.stop()
    }
}
