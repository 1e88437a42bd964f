import Vapor

/// The signed-in user of a web page, as templates see it (set by the accounts' session middleware).
public struct WebUser: Encodable, Sendable {
    var id: String
    var displayName: String
    var username: String
    var email: String?
    var isAdmin: Bool
    var isEditor: Bool
}

extension Request {
    private struct WebUserKey: StorageKey { typealias Value = WebUser }

    /// Who the page is for, as the layout shows them; nil when no one is signed in.
    var webUser: WebUser? {
        get { storage[WebUserKey.self] }
        set { storage[WebUserKey.self] = newValue }
    }

    /// The CSRF token of this browser's session (made on first use). Empty outside web routes.
    var csrfToken: String {
        guard hasSession else { return "" }
        if let token = session.data["csrf"] { return token }
        let token = TokenHash.randomToken()
        session.data["csrf"] = token
        return token
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
