import Foundation
import JWTKit

/// APNs' provider token: an ES256 JWT of the team and the signing key, made once and reused for
/// about 50 minutes (Apple refuses tokens older than an hour, and new ones more often than every
/// 20 minutes).
actor APNSProviderToken {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let reuse: TimeInterval = 50 * 60

    private let keys = JWTKeyCollection()
    private let teamID: String
    private let keyID: String
    private let clock: any AppClock
    private var current: (token: String, issuedAt: Date)?
    private var keyAdded = false
    private let privateKeyPEM: String

    init(teamID: String, keyID: String, privateKeyPEM: String, clock: any AppClock) throws {
        _ = try ES256PrivateKey(pem: privateKeyPEM)  // a bad key fails at start-up, not at the first push
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.clock = clock
    }

    func token() async throws -> String {
        let now = clock.now()
        if let current, now.timeIntervalSince(current.issuedAt) < Self.reuse, now >= current.issuedAt { return current.token }
        if !keyAdded {
            await keys.add(ecdsa: try ES256PrivateKey(pem: privateKeyPEM), kid: JWKIdentifier(string: keyID))
            keyAdded = true
        }
        let token = try await keys.sign(Claims(iss: .init(value: teamID), iat: .init(value: now)), kid: JWKIdentifier(string: keyID))
        current = (token, now)
        return token
    }
}
