import AsyncHTTPClient
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import NIOCore

/// Verifies Apple, Google and Facebook ID tokens: signature against the provider's JWKS
/// (fetched and cached, or configured inline), issuer, audience, expiry and nonce.
final class SocialTokenVerifier: Sendable {
    enum Provider: String, CaseIterable, Sendable {
        case apple, google, facebook

        var issuers: [String] {
            switch self {
            case .apple: ["https://appleid.apple.com"]
            case .google: ["https://accounts.google.com", "accounts.google.com"]
            case .facebook: ["https://www.facebook.com", "https://facebook.com"]
            }
        }
    }

    struct Identity: Sendable, Equatable {
        var provider: Provider
        var subject: String
        var email: String?
        var emailVerified: Bool
        var name: String?
        var picture: String?
    }

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var email: String?
        var emailVerified: FlexibleBool?
        var nonce: String?
        var name: String?
        var picture: String?

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, email, nonce, name, picture
            case emailVerified = "email_verified"
        }

        // Checked against the app clock in `verify(provider:token:nonce:)`.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Apple sends `email_verified` as a string, Google as a boolean.
    struct FlexibleBool: Codable, Sendable {
        var value: Bool
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                value = bool
            } else {
                value = (try container.decode(String.self)).lowercased() == "true"
            }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    private struct CachedKeys {
        var keys: JWTKeyCollection
        var fetchedAt: Date
    }

    private let settings: [Provider: AppConfig.SocialProvider]
    private let clock: any AppClock
    private let cache = NIOLockedValueBox<[Provider: CachedKeys]>([:])
    private static let cacheLifetime: TimeInterval = 3600
    private static let refetchAfterUnknownKey: TimeInterval = 60

    init(config: AppConfig, clock: any AppClock) {
        self.settings = [.apple: config.apple, .google: config.google, .facebook: config.facebook]
        self.clock = clock
    }

    func verify(provider: Provider, token: String, nonce: String?) async throws -> Identity {
        guard let setting = settings[provider], !setting.clientIDs.isEmpty else {
            throw Problem.invalid("provider", "Sign in with \(provider.rawValue) is not set up on this server.")
        }
        let invalid = Problem.unauthorized("The \(provider.rawValue) ID token is invalid or expired.")
        var claims: Claims
        do {
            claims = try await keys(for: provider, setting: setting, forceRefresh: false).verify(token, as: Claims.self)
        } catch {
            // A key rotation at the provider shows up as an unknown key id: fetch once more.
            guard let refreshed = try? await keys(for: provider, setting: setting, forceRefresh: true),
                let retried = try? await refreshed.verify(token, as: Claims.self)
            else { throw invalid }
            claims = retried
        }
        guard provider.issuers.contains(claims.iss.value),
            claims.aud.value.contains(where: setting.clientIDs.contains),
            claims.exp.value > clock.now()
        else { throw invalid }
        if let expected = nonce {
            // Apple puts the SHA-256 of the raw nonce in the token; others put the nonce itself.
            guard let actual = claims.nonce, actual == expected || actual == TokenHash.sha256(expected) else {
                throw Problem.unauthorized("The ID token's nonce does not match.")
            }
        } else if claims.nonce != nil {
            throw Problem.invalid("nonce", "is required for this token")
        }
        return Identity(
            provider: provider, subject: claims.sub.value,
            email: claims.email.map { $0.trimmingCharacters(in: .whitespaces).lowercased() },
            emailVerified: claims.emailVerified?.value ?? false, name: claims.name, picture: claims.picture)
    }

    private func keys(
        for provider: Provider, setting: AppConfig.SocialProvider, forceRefresh: Bool
    ) async throws -> JWTKeyCollection {
        let now = clock.now()
        if let cached = cache.withLockedValue({ $0[provider] }) {
            let age = now.timeIntervalSince(cached.fetchedAt)
            let fresh = forceRefresh ? age < Self.refetchAfterUnknownKey : age < Self.cacheLifetime
            if fresh || setting.jwks != nil {
                if forceRefresh && setting.jwks != nil { throw Problem.unauthorized("Unknown signing key.") }
                return cached.keys
            }
        }
        let data = try await jwksData(setting)
        let jwks = try JSONDecoder().decode(JWKS.self, from: data)
        let keys = JWTKeyCollection()
        try await keys.add(jwks: jwks)
        cache.withLockedValue { $0[provider] = CachedKeys(keys: keys, fetchedAt: now) }
        return keys
    }

    private func jwksData(_ setting: AppConfig.SocialProvider) async throws -> Data {
        if let inline = setting.jwks {
            if inline.hasPrefix("{") { return Data(inline.utf8) }
            guard let data = FileManager.default.contents(atPath: inline) else {
                throw ConfigError.invalid("AUTH_*_JWKS", "no file at \(inline)")
            }
            return data
        }
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: setting.jwksURL), timeout: .seconds(10))
        guard response.status == .ok else { throw Problem(.badGateway, detail: "The sign-in provider did not answer.") }
        let body = try await response.body.collect(upTo: 1 << 20)
        return Data(buffer: body)
    }
}
