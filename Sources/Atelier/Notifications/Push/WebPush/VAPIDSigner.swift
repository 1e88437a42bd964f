import Crypto
import Foundation
import JWTKit

/// Identifies us to browsers' push services (RFC 8292): an ES256 JWT for the push service's
/// origin, valid 12 hours and reused for an hour, sent with our public key.
actor VAPIDSigner {
    struct Claims: JWTPayload {
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var sub: SubjectClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let lifetime: TimeInterval = 12 * 3600
    static let reuse: TimeInterval = 3600

    /// The uncompressed public key, base64url: the `k=` of the header and the browser's
    /// `applicationServerKey`.
    let publicKey: String
    private let keys = JWTKeyCollection()
    private let key: ES256PrivateKey
    private let subject: String
    private let clock: any AppClock
    private var tokens: [String: (token: String, issuedAt: Date)] = [:]

    init(privateKeyPEM: String, subject: String, clock: any AppClock) throws {
        let signing = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        publicKey = Base64URL.encode(signing.publicKey.x963Representation)
        key = try ES256PrivateKey(pem: privateKeyPEM)
        self.subject = subject
        self.clock = clock
    }

    /// The `Authorization` header for a push to `endpoint`.
    func authorization(for endpoint: URL) async throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else { throw WebPushEncryption.Failure.badSubscriptionKey }
        let audience = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let now = clock.now()
        if let cached = tokens[audience], now.timeIntervalSince(cached.issuedAt) < Self.reuse, now >= cached.issuedAt {
            return "vapid t=\(cached.token), k=\(publicKey)"
        }
        if tokens.isEmpty { await keys.add(ecdsa: key) }
        let token = try await keys.sign(Claims(aud: .init(value: audience), exp: .init(value: now.addingTimeInterval(Self.lifetime)), sub: .init(value: subject)))
        tokens[audience] = (token, now)
        return "vapid t=\(token), k=\(publicKey)"
    }
}
