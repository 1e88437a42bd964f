import Fluent
import Vapor

/// The signed-in user of a web page, as templates see it.
public struct WebUser: Encodable, Sendable {
    var id: String
    var displayName: String
    var username: String
    var email: String?
    var isAdmin: Bool
    var isEditor: Bool

    init(_ user: User) {
        id = user.id!.idString
        displayName = user.displayName
        username = user.username
        email = user.email
        isAdmin = user.isAdmin
        isEditor = user.isEditor
    }
}

extension Request {
    private struct WebUserKey: StorageKey { typealias Value = User }

    /// The user signed in through the cookie session, loaded by `WebSessionMiddleware`.
    var webSessionUser: User? {
        get { storage[WebUserKey.self] }
        set { storage[WebUserKey.self] = newValue }
    }

    var webUser: WebUser? { webSessionUser.map(WebUser.init) }

    /// The CSRF token of this browser's session (made on first use). Empty outside web routes.
    var csrfToken: String {
        guard hasSession else { return "" }
        if let token = session.data["csrf"] { return token }
        let token = TokenHash.randomToken()
        session.data["csrf"] = token
        return token
    }

    /// Signs `user` in; what they put in the cart while signed out moves into their account's cart.
    func signInWebSession(_ user: User) async throws {
        session.data["uid"] = user.id?.uuidString
        session.data["at"] = String(atelier.clock.now().timeIntervalSince1970)
        session.data["csrf"] = TokenHash.randomToken()
        webSessionUser = user
        if let cartKey = session.data[WebCart.sessionKey] {
            try await CartService(db: db, services: atelier).merge(session: cartKey, into: user)
            session.data[WebCart.sessionKey] = nil
        }
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

/// Every state-changing web request carries the session's CSRF token as the form field
/// `csrfToken` or the `X-CSRF-Token` header.
struct CSRFMiddleware: AsyncMiddleware {
    static let maxFormBytes = 64 * 1024
    /// Forms with photos (the store portal, the outfit composer, the profile picture) are read whole to find the token; routes that take
    /// them allow bodies this large.
    static let maxMultipartBytes = 120 * 1024 * 1024

    /// The forms that send photos (each such route also collects a large body itself). A photo
    /// form missing here is refused with 413 for any photo over 64 KB, as `/closet/photos` was.
    static func takesPhotos(_ path: String) -> Bool {
        path.hasPrefix("/portal/") || ["/ootd", "/settings/picture", "/closet/photos"].contains(path)
            || (path.hasPrefix("/moments/") && path.hasSuffix("/photos"))
            || (path.hasPrefix("/admin/categories/") && path.hasSuffix("/describe"))
    }

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.method != .GET, request.method != .HEAD else {
            return try await next.respond(to: request)
        }
        let expected = request.session.data["csrf"]
        var presented = request.headers.first(name: "X-CSRF-Token")
        if presented == nil, request.headers.contentType == .urlEncodedForm {
            _ = try await request.body.collect(max: Self.maxFormBytes).get()
            presented = try? request.content.get(String.self, at: "csrfToken")
        } else if presented == nil, request.headers.contentType?.type == "multipart" {
            let limit = Self.takesPhotos(request.url.path) ? Self.maxMultipartBytes : Self.maxFormBytes
            _ = try await request.body.collect(max: limit).get()
            presented = try? request.content.get(String.self, at: "csrfToken")
        }
        guard let expected, let presented,
            Data(expected.utf8).count == Data(presented.utf8).count,
            zip(expected.utf8, presented.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else {
            throw Problem(.forbidden, detail: "This form has expired. Go back, reload the page and try again.")
        }
        return try await next.respond(to: request)
    }
}
