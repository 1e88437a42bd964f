import Foundation
import JWTKit

/// Short-lived access tokens: HS256 JWTs naming the user and the session family they belong to.
/// Expiry is checked against the app clock, so tests can move time forward.
final class AccessTokenIssuer: Sendable {
    struct Payload: JWTPayload {
        var sub: SubjectClaim
        var fam: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        // Expiry is checked in `verify(_:)` against the app clock, not the wall clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    struct Verified: Sendable {
        var userID: UUID
        var familyID: UUID
    }

    static let lifetime: TimeInterval = 15 * 60

    private let keys: JWTKeyCollection
    private let clock: any AppClock

    init(secret: String, clock: any AppClock) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
        self.clock = clock
    }

    func issue(userID: UUID, familyID: UUID) async throws -> (token: String, expiresAt: Date) {
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(Self.lifetime)
        let payload = Payload(
            sub: .init(value: userID.idString), fam: familyID.idString, iat: .init(value: now),
            exp: .init(value: expiresAt))
        return (try await keys.sign(payload), expiresAt)
    }

    /// Returns nil for anything that is not a valid, unexpired token of ours.
    func verify(_ token: String) async -> Verified? {
        guard let payload = try? await keys.verify(token, as: Payload.self),
            payload.exp.value > clock.now(),
            let userID = UUID(text: payload.sub.value),
            let familyID = UUID(text: payload.fam)
        else { return nil }
        return Verified(userID: userID, familyID: familyID)
    }
}
