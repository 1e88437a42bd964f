import Fluent
import Vapor

extension WebUser {
    init(_ user: User) {
        self.init(
            id: user.id!.idString, displayName: user.displayName, username: user.username, email: user.email,
            isAdmin: user.isAdmin, isEditor: user.isEditor)
    }
}

/// What other domains do when a browser's visitor signs in, registered at start-up by the composition
/// root (the cart moves what was put in it while signed out into the account's cart). A step that throws
/// fails the sign-in's response; the session is already signed in by then.
struct WebSignInSteps: Sendable {
    typealias Step = @Sendable (Request, User) async throws -> Void
    private(set) var steps: [Step] = []

    mutating func add(_ step: @escaping Step) { steps.append(step) }
}

extension Application {
    private struct WebSignInStepsKey: StorageKey { typealias Value = WebSignInSteps }

    var webSignInSteps: WebSignInSteps {
        get { storage[WebSignInStepsKey.self] ?? WebSignInSteps() }
        set { storage[WebSignInStepsKey.self] = newValue }
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
        for step in application.webSignInSteps.steps { try await step(self, user) }
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
