import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Sends a push to a browser's push service (RFC 8030): the message as JSON, encrypted for the
/// subscription (`aes128gcm`, RFC 8291), with our VAPID identification (RFC 8292).
struct WebPushClient: PushSender {
    let http: HTTPClient
    let vapid: VAPIDSigner
    /// How long the push service keeps a message for a browser that is offline.
    static let timeToLive = 86_400

    func send(_ message: PushMessage, to target: PushTarget) async throws -> PushResult {
        guard let endpoint = URL(string: target.token),
              let p256dh = target.webPushP256dh.flatMap({ Base64URL.bytes($0, maxLength: 200) }),
              let auth = target.webPushAuth.flatMap({ Base64URL.bytes($0, maxLength: 100) })
        else { return .badToken(reason: "the subscription is incomplete") }
        var fields: [String: Any] = [
            "title": "Atelier", "body": message.text, "link": message.link, "url": message.webPath ?? "/notifications",
            "kind": message.kind, "badge": message.badge,
        ]
        if let topic = message.collapseID { fields["topic"] = topic }
        let json = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        let body: Data
        do {
            body = try WebPushEncryption.encrypt(json, p256dh: p256dh, auth: auth)
        } catch WebPushEncryption.Failure.tooLong {
            return .rejected(reason: "the message is too long for one record")
        } catch {
            return .badToken(reason: "the subscription's keys are not usable")
        }
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "authorization", value: try await vapid.authorization(for: endpoint))
        request.headers.add(name: "ttl", value: String(Self.timeToLive))
        request.headers.add(name: "content-encoding", value: "aes128gcm")
        request.headers.add(name: "content-type", value: "application/octet-stream")
        request.headers.add(name: "urgency", value: "normal")
        if let collapse = message.collapseID { request.headers.add(name: "topic", value: Self.topic(collapse)) }
        request.body = .bytes(ByteBuffer(data: body))
        let response = try await http.execute(request, timeout: .seconds(20))
        _ = try? await response.body.collect(upTo: 16 * 1024)
        return Self.result(status: response.status.code, retryAfter: response.headers.first(name: "retry-after").flatMap(TimeInterval.init))
    }

    /// A push replaces an undelivered one with the same topic; topics are at most 32 base64url characters.
    static func topic(_ collapse: String) -> String {
        String(Base64URL.encode(Data(SHA256.hash(data: Data(collapse.utf8)))).prefix(32))
    }

    static func result(status: UInt, retryAfter: TimeInterval?) -> PushResult {
        switch status {
        case 200..<300: return .sent(providerID: nil)
        // The subscription expired or was withdrawn.
        case 404, 410: return .unregistered(since: nil)
        case 429, 500...: return .retry(after: retryAfter, reason: "HTTP \(status)")
        default: return .rejected(reason: "HTTP \(status)")
        }
    }
}
