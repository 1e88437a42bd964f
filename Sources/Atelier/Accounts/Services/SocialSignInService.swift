import Fluent
import Foundation

/// Sign in (or up) with a provider's ID token. A provider email that matches an existing
/// account is linked only when the provider says it is verified; never merged silently.
struct SocialSignInService {
    let db: any Database
    let core: CoreServices
    let socialVerifier: SocialTokenVerifier

    struct Result {
        var user: User
        var session: SessionService.Issued
        var created: Bool
        /// For a new account: the picture the provider's token names, for the caller to fetch.
        var providerPicture: URL? = nil
    }

    func signIn(
        provider: SocialTokenVerifier.Provider, idToken: String, nonce: String?, displayName: String?
    ) async throws -> Result {
        let identity = try await socialVerifier.verify(provider: provider, token: idToken, nonce: nonce)
        let now = core.clock.now()

        if let linked = try await SocialIdentity.query(on: db)
            .filter(\.$provider == provider.rawValue).filter(\.$subject == identity.subject).with(\.$user).first()
        {
            return try await signedIn(linked.user, created: false)
        }

        if let email = identity.email, let existing = try await User.query(on: db).filter(\.$email == email).first() {
            guard identity.emailVerified else {
                throw Problem(
                    .conflict, type: "https://atelier.dev/problems/account-exists",
                    title: "Account exists",
                    detail: "An Atelier account already uses \(email), and \(provider.rawValue) has not verified that address. Sign in with your password instead.")
            }
            try await SocialIdentity(
                userID: try existing.requireID(), provider: provider.rawValue, subject: identity.subject,
                email: email, now: now
            ).create(on: db)
            if existing.emailVerifiedAt == nil {
                existing.emailVerifiedAt = now
                try await existing.save(on: db)
            }
            return try await signedIn(existing, created: false)
        }

        let name = [displayName, identity.name, identity.email?.split(separator: "@").first.map(String.init)]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty } ?? "Atelier member"
        let user = User(
            id: .v7(at: now), email: identity.email, passwordHash: nil, displayName: String(name.prefix(60)),
            username: try await UsernameGenerator(db: db).make(from: name, email: identity.email), now: now)
        if identity.email != nil, identity.emailVerified { user.emailVerifiedAt = now }
        return try await db.transaction { tx in
            try await user.create(on: tx)
            try await SocialIdentity(
                userID: user.id!, provider: provider.rawValue, subject: identity.subject, email: identity.email, now: now
            ).create(on: tx)
            let session = try await SessionService(db: tx, core: core).issue(for: user)
            return Result(
                user: user, session: session, created: true,
                providerPicture: identity.picture.flatMap(URL.init(string:)).flatMap { ["https", "http"].contains($0.scheme) ? $0 : nil })
        }
    }

    private func signedIn(_ user: User, created: Bool) async throws -> Result {
        if user.suspendedAt != nil { throw AccountProblems.suspended }
        return Result(user: user, session: try await SessionService(db: db, core: core).issue(for: user), created: created)
    }
}
