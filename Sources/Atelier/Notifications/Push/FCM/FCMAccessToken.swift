import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// FCM's OAuth access token: an RS256 JWT signed with the service account's key (RFC 7523), exchanged
/// at the account's token endpoint, and reused until a minute before Google says it expires. Pushes
/// that need a token while one is being fetched wait for that exchange instead of starting their own.
actor FCMAccessToken {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var scope: String
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The token endpoint refused the assertion; `error` is its OAuth error code (`invalid_grant`).
    struct ExchangeFailed: Error, CustomStringConvertible {
        var status: UInt
        var error: String?
        var description: String { "the OAuth token exchange failed: HTTP \(status)" + (error.map { " \($0)" } ?? "") }
    }

    private struct Granted: Decodable {
        var accessToken: String
        var expiresIn: Double
        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }
    }

    private struct Refused: Decodable { var error: String }

    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let assertionLifetime: TimeInterval = 3600
    /// A token is replaced this long before it expires, so none runs out on its way to FCM.
    static let margin: TimeInterval = 60

    let account: FCMServiceAccount
    private let http: HTTPClient
    private let clock: any AppClock
    private let key: Insecure.RSA.PrivateKey
    private let keys = JWTKeyCollection()
    private var keyAdded = false
    private var current: (token: String, obtainedAt: Date, renewAt: Date)?
    private var exchange: Task<String, any Error>?

    init(account: FCMServiceAccount, http: HTTPClient, clock: any AppClock) throws {
        key = try Insecure.RSA.PrivateKey(pem: account.privateKeyPEM)
        self.account = account
        self.http = http
        self.clock = clock
    }

    func token() async throws -> String {
        let now = clock.now()
        if let current, now < current.renewAt, now >= current.obtainedAt { return current.token }
        if let exchange { return try await exchange.value }
        let task = Task { try await self.exchangeAssertion() }
        exchange = task
        return try await task.value
    }

    /// Drops the cached token after FCM refused it (401), unless a newer one has replaced it already.
    func invalidate(_ refused: String? = nil) {
        if refused == nil || current?.token == refused { current = nil }
    }

    private func exchangeAssertion() async throws -> String {
        defer { exchange = nil }
        // Whole seconds: the token endpoint wants integer times.
        let now = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down))
        let kid = JWKIdentifier(string: account.privateKeyID)
        if !keyAdded {
            await keys.add(rsa: key, digestAlgorithm: .sha256, kid: kid)
            keyAdded = true
        }
        let assertion = try await keys.sign(
            Claims(
                iss: .init(value: account.clientEmail), scope: Self.scope, aud: .init(value: account.tokenURI),
                iat: .init(value: now), exp: .init(value: now.addingTimeInterval(Self.assertionLifetime))),
            kid: kid)
        var request = HTTPClientRequest(url: account.tokenURI)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "grant_type=\(Self.formEncoded(Self.grantType))&assertion=\(Self.formEncoded(assertion))"))
        let response = try await http.execute(request, timeout: .seconds(20))
        let body = Data(buffer: try await response.body.collect(upTo: 64 * 1024))
        guard response.status == .ok, let granted = try? JSONDecoder().decode(Granted.self, from: body), !granted.accessToken.isEmpty else {
            let code = (try? JSONDecoder().decode(Refused.self, from: body))?.error
            throw ExchangeFailed(status: response.status.code, error: code.map { String($0.prefix(60)) })
        }
        current = (granted.accessToken, now, now.addingTimeInterval(granted.expiresIn - Self.margin))
        return granted.accessToken
    }

    /// `application/x-www-form-urlencoded`: every byte but the unreserved ones as `%XX`.
    static func formEncoded(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var encoded = ""
        for byte in value.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                encoded.append(character)
            } else {
                encoded += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return encoded
    }
}
