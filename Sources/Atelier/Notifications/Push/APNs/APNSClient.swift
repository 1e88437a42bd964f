import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Sends alerts to Apple's push service over HTTP/2 (AsyncHTTPClient speaks it through ALPN), with
/// the provider token, the topic (the app's bundle id), the push type and a collapse id.
struct APNSClient: PushSender {
    static let production = "https://api.push.apple.com"
    static let sandbox = "https://api.sandbox.push.apple.com"
    static let maxPayloadBytes = 4096

    let http: HTTPClient
    let token: APNSProviderToken
    /// Overrides Apple's hosts (tests' local server).
    let baseURL: String?
    let defaultTopic: String?

    func send(_ message: PushMessage, to target: PushTarget) async throws -> PushResult {
        guard let topic = target.bundleID ?? defaultTopic else { return .rejected(reason: "no bundle id for the device and no APNS_TOPIC") }
        let base = baseURL ?? (target.apnsEnvironment == "sandbox" ? Self.sandbox : Self.production)
        var request = HTTPClientRequest(url: "\(base)/3/device/\(target.token)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(try await token.token())")
        request.headers.add(name: "apns-topic", value: topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: "10")
        if let collapse = message.collapseID { request.headers.add(name: "apns-collapse-id", value: String(collapse.utf8.prefix(64))!) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try Self.payload(message)))
        let response = try await http.execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 64 * 1024)
        return Self.result(status: response.status.code, headers: response.headers, body: Data(buffer: body))
    }

    /// The alert as APNs wants it, its text shortened until the whole fits in 4 096 bytes.
    static func payload(_ message: PushMessage) throws -> Data {
        var text = message.text
        while true {
            var aps: [String: Any] = ["alert": ["body": text], "badge": message.badge, "sound": "default"]
            if let collapse = message.collapseID { aps["thread-id"] = collapse }
            let data = try JSONSerialization.data(withJSONObject: ["aps": aps, "link": message.link, "kind": message.kind], options: [.sortedKeys])
            if data.count <= maxPayloadBytes || text.isEmpty { return data }
            // Cut the text by the bytes over (and the ellipsis' three), at a character boundary.
            let keepBytes = text.utf8.count - (data.count - maxPayloadBytes) - 3
            var kept = "", bytes = 0
            for character in text {
                bytes += character.utf8.count
                if bytes > keepBytes { break }
                kept.append(character)
            }
            text = kept.isEmpty ? "" : kept + "…"
        }
    }

    struct ErrorBody: Decodable {
        var reason: String
        /// Milliseconds since 1970, on 410 answers.
        var timestamp: Double?
    }

    static func result(status: UInt, headers: HTTPHeaders, body: Data) -> PushResult {
        if status == 200 { return .sent(providerID: headers.first(name: "apns-id")) }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let reason = error?.reason ?? "HTTP \(status)"
        let retryAfter = headers.first(name: "retry-after").flatMap(TimeInterval.init)
        switch (status, reason) {
        case (410, _), (400, "Unregistered"):
            return .unregistered(since: error?.timestamp.map { Date(timeIntervalSince1970: $0 / 1000) })
        case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .badToken(reason: reason)
        case (429, _), (500..., _): return .retry(after: retryAfter, reason: reason)
        case (403, "ExpiredProviderToken"): return .retry(after: nil, reason: reason)
        default: return .rejected(reason: reason)
        }
    }
}
