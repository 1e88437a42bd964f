import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Sends notifications to Android phones through FCM's HTTP v1 API
/// (`POST /v1/projects/{project}/messages:send`) with the service account's OAuth token.
struct FCMClient: PushSender {
    let http: HTTPClient
    let token: FCMAccessToken
    let projectID: String
    /// `https://fcm.googleapis.com`, or tests' local server.
    let baseURL: String

    func send(_ message: PushMessage, to target: PushTarget) async throws -> PushResult {
        let payload = try Self.payload(message, token: target.token)
        let bearer: String
        let response: HTTPClientResponse
        let body: Data
        do {
            bearer = try await token.token()
            var request = HTTPClientRequest(url: "\(baseURL)/v1/projects/\(projectID)/messages:send")
            request.method = .POST
            request.headers.add(name: "authorization", value: "Bearer \(bearer)")
            request.headers.add(name: "content-type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(data: payload))
            response = try await http.execute(request, timeout: .seconds(20))
            body = Data(buffer: try await response.body.collect(upTo: 64 * 1024))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // Unreachable, timed out, or no OAuth token to be had: another attempt may fare better.
            return .retry(after: nil, reason: Self.short("\(error)"))
        }
        let result = Self.result(status: response.status.code, headers: response.headers, body: body)
        if response.status.code == 401 { await token.invalidate(bearer) }
        return result
    }

    /// The message as FCM wants it. Data values must be strings; the Android part shows it at once,
    /// replaces the group's earlier notification (`tag`) and sets the launcher badge.
    static func payload(_ message: PushMessage, token: String) throws -> Data {
        var androidNotification: [String: Any] = ["notification_count": message.badge]
        var android: [String: Any] = ["priority": "high"]
        if let collapse = message.collapseID {
            android["collapse_key"] = collapse
            androidNotification["tag"] = collapse
        }
        android["notification"] = androidNotification
        let fields: [String: Any] = [
            "token": token,
            "notification": ["title": "Atelier", "body": message.text],
            "data": ["link": message.link, "kind": message.kind, "badge": String(message.badge)],
            "android": android,
        ]
        let root: [String: Any] = ["message": fields]
        return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
    }

    /// `{"name": "projects/…/messages/…"}`
    struct Sent: Decodable { var name: String }

    /// Google's error body: a canonical status, a message, and FCM's own error code among the details.
    struct ErrorBody: Decodable {
        struct Status: Decodable {
            var status: String?
            var message: String?
            var details: [Detail]?
        }
        struct Detail: Decodable {
            var errorCode: String?
            var fieldViolations: [FieldViolation]?
        }
        struct FieldViolation: Decodable { var field: String? }
        var error: Status
    }

    static func result(status: UInt, headers: HTTPHeaders, body: Data) -> PushResult {
        if status == 200 { return .sent(providerID: (try? JSONDecoder().decode(Sent.self, from: body))?.name) }
        let error = (try? JSONDecoder().decode(ErrorBody.self, from: body))?.error
        let details = error?.details ?? []
        let fcmCodes = details.compactMap(\.errorCode)
        let codes = Set(fcmCodes + [error?.status].compactMap { $0 })
        let code = fcmCodes.first ?? error?.status ?? "HTTP \(status)"
        let reason = error?.message.map { "\(code): \(short($0))" } ?? code
        let retryAfter = headers.first(name: "retry-after").flatMap(TimeInterval.init)
        // An INVALID_ARGUMENT may be about any field; only one about the token condemns the token.
        let aboutToken = details.contains { detail in detail.fieldViolations?.contains { $0.field == "message.token" } == true }
            || error?.message?.lowercased().contains("registration token") == true

        if status == 404 || codes.contains("UNREGISTERED") { return .unregistered(since: nil) }
        if status == 400, codes.contains("INVALID_ARGUMENT"), aboutToken { return .badToken(reason: reason) }
        if status == 403, codes.contains("SENDER_ID_MISMATCH") { return .badToken(reason: reason) }
        // Our OAuth token was refused (expired early or revoked): the caller drops it, the retry gets a new one.
        if status == 401 { return .retry(after: nil, reason: reason) }
        if status == 429 || status >= 500 || !codes.isDisjoint(with: ["QUOTA_EXCEEDED", "UNAVAILABLE", "INTERNAL"]) {
            return .retry(after: retryAfter, reason: reason)
        }
        return .rejected(reason: reason)
    }

    /// A provider's message, on one line and short enough for a delivery's reason.
    static func short(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 120 ? line : String(line.prefix(119)) + "…"
    }
}
