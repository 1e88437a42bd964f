import Foundation
import Vapor

/// What every admin page's actions share, whichever domain's page it is: the path's id, an action that
/// goes back with its message (or the refusal) as a flash, times as admins compare them with logs.
enum AdminActions {
    static func id(_ req: Request) throws -> UUID {
        guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Problem.notFound() }
        return id
    }

    /// Runs an admin action and goes back with its message (or the refusal) as a flash.
    static func act(_ req: Request, back: String, _ action: (User) async throws -> String) async throws -> Response {
        try await req.formAction(redirectTo: back) { try await action(try req.requireWebUser()) }
    }

    /// UTC, to the second: admins compare these with logs.
    static func time(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)) + " UTC"
    }
}

/// Admin pages answer 404 to everyone else, so they do not advertise themselves.
struct RequireWebAdmin: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard request.webSessionUser?.isAdmin == true else { throw Problem.notFound("page") }
        return try await next.respond(to: request)
    }
}
