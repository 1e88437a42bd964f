import Fluent
import Vapor

extension WebUser {
    init(_ user: User) {
        self.init(
            id: user.id!.idString, displayName: user.displayName, username: user.username, email: user.email,
            isAdmin: user.isAdmin, isEditor: user.isEditor)
    }
}

/// What other domains add to the web's account pages, registered at start-up by the composition root:
/// steps when a browser's visitor signs in (the cart moves what was put in it while signed out into the
/// account's cart) or out (this browser's push subscription is forgotten), and sections of the settings
/// page (notification preferences). A step that throws fails the response; a sign-in is already
/// signed in by then.
struct WebAccountParts: Sendable {
    typealias SignInStep = @Sendable (Request, User) async throws -> Void
    typealias SignOutStep = @Sendable (Request) async throws -> Void
    /// Values a settings section's template reads.
    typealias SettingsSection = @Sendable (Request, User) async throws -> [String: FormValue]

    private(set) var signInSteps: [SignInStep] = []
    private(set) var signOutSteps: [SignOutStep] = []
    private(set) var settingsSections: [SettingsSection] = []

    mutating func onSignIn(_ step: @escaping SignInStep) { signInSteps.append(step) }
    mutating func onSignOut(_ step: @escaping SignOutStep) { signOutSteps.append(step) }
    mutating func addSettingsSection(_ section: @escaping SettingsSection) { settingsSections.append(section) }
}

extension Application {
    private struct WebAccountPartsKey: StorageKey { typealias Value = WebAccountParts }

    var webAccountParts: WebAccountParts {
        get { storage[WebAccountPartsKey.self] ?? WebAccountParts() }
        set { storage[WebAccountPartsKey.self] = newValue }
    }
}

extension Request {
    private struct WebSessionUserKey: StorageKey { typealias Value = User }

    /// The user signed in through the cookie session, loaded by `WebSessionMiddleware`.
    var webSessionUser: User? {
        get { storage[WebSessionUserKey.self] }
        set {
            storage[WebSessionUserKey.self] = newValue
            webUser = newValue.map(WebUser.init)
        }
    }

    /// Signs `user` in, then runs the other domains' sign-in steps.
    func signInWebSession(_ user: User) async throws {
        session.data["uid"] = user.id?.uuidString
        session.data["at"] = String(atelier.clock.now().timeIntervalSince1970)
        session.data["csrf"] = TokenHash.randomToken()
        webSessionUser = user
        for step in application.webAccountParts.signInSteps { try await step(self, user) }
    }

    /// Forgets the user but keeps the (now anonymous) session, so the next page can still show
    /// a message; the CSRF token is replaced.
    func signOutWebSession() {
        session.data = SessionData()
        session.data["csrf"] = TokenHash.randomToken()
        webSessionUser = nil
    }
}

/// Loads the session's user; drops sessions of deleted or suspended users and sessions older
/// than the user's last password change.
struct WebSessionMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if let raw = request.session.data["uid"], let id = UUID(uuidString: raw) {
            let signedInAt = request.session.data["at"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
            if let user = try await User.find(id, on: request.db), user.suspendedAt == nil,
                !(user.sessionsValidAfter.map { signedInAt == nil || $0 > signedInAt! } ?? false)
            {
                request.webSessionUser = user
            } else {
                request.session.destroy()
            }
        }
        return try await next.respond(to: request)
    }
}
