import Foundation
import JWTKit

/// A provider of our own: the server trusts a JWKS made here, and the test signs ID tokens with it.
public struct FakeProvider: Sendable {
    public static let clientID = "app.atelier.test"
    let key = ES256PrivateKey()
    let keys = JWTKeyCollection()

    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
        var email: String?
        var email_verified: Bool?
        var nonce: String?
        var name: String?
        var picture: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    public var jwks: String {
        let parameters = key.publicKey.parameters!
        return #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"test-key","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
    }

    public static func make() async -> FakeProvider {
        let provider = FakeProvider()
        await provider.keys.add(ecdsa: provider.key, kid: "test-key")
        return provider
    }

    public func token(
        subject: String, email: String?, verified: Bool?, now: Date, audience: String = FakeProvider.clientID,
        issuer: String = "https://accounts.google.com", nonce: String? = nil, picture: String? = nil
    ) async throws -> String {
        try await keys.sign(
            Claims(
                iss: issuer, sub: subject, aud: audience, exp: Int(now.timeIntervalSince1970) + 600, email: email,
                email_verified: verified, nonce: nonce, name: "Social Person", picture: picture),
            kid: "test-key")
    }
}
