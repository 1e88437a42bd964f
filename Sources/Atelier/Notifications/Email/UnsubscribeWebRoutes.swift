import Fluent
import Vapor

/// The unsubscribe link of notification emails. Mail clients POST to it for one click
/// (RFC 8058: no sign-in, no CSRF token, the signed token is the authority); a person who opens it
/// in a browser gets a page with one button, so a link checker fetching it changes nothing.
enum UnsubscribeWebRoutes {
    struct Page: WebPageContext {
        var page: PageContext
        var kindLabel: String
        var token: String
        var done: Bool
    }

    /// On a group without the CSRF check.
    static func register(_ routes: any RoutesBuilder) {
        routes.get("unsubscribe", ":token") { req in try await render(req, done: false) }
        routes.post("unsubscribe", ":token") { req in try await unsubscribe(req) }
    }

    private static func subject(_ req: Request) throws -> (userID: UUID, kind: InboxEntry.Kind, token: String) {
        let token = req.parameters.get("token") ?? ""
        guard let (userID, kind) = UnsubscribeToken.read(token, secret: req.atelier.secrets.urlSigningKey) else {
            throw Problem.notFound("unsubscribe link")
        }
        return (userID, kind, token)
    }

    private static func render(_ req: Request, done: Bool) async throws -> View {
        let (_, kind, token) = try subject(req)
        return try await req.renderPage("notifications/unsubscribe", Page(
            page: PageContext(req, title: done ? "Unsubscribed" : "Unsubscribe"), kindLabel: NotificationKinds.label(kind), token: token, done: done))
    }

    private static func unsubscribe(_ req: Request) async throws -> View {
        let (userID, kind, _) = try subject(req)
        if try await User.find(userID, on: req.db) != nil {
            try await NotificationPreferencesService(db: req.db, core: req.core)
                .update(userID, changes: [.init(kind: kind.rawValue, push: nil, email: false)], quiet: nil, clearQuiet: false)
        }
        return try await render(req, done: true)
    }
}
