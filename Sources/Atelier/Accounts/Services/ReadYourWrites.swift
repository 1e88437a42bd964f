import Fluent
import SQLKit
import Vapor

extension ReadReplica {
    /// The read replica's notion of "just wrote": `users.last_write_at` of the signed-in caller.
    @Sendable static func lastWriteOfCaller(_ request: Request) -> Date? {
        (request.authenticatedCaller?.user ?? request.webSessionUser)?.lastWriteAt
    }
}

/// Stamps `users.last_write_at` after a signed-in person's successful write, so their next reads
/// go to the primary (see `ReadReplica`). Only with a replica.
struct ReadYourWritesMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let response = try await next.respond(to: request)
        guard request.atelier.replica != nil, ![.GET, .HEAD, .OPTIONS].contains(request.method), response.status.code < 400 else {
            return response
        }
        let user = request.authenticatedCaller?.user ?? request.webSessionUser
        guard let user, let id = user.id else { return response }
        let now = request.atelier.clock.now()
        if let written = user.lastWriteAt, now.timeIntervalSince(written) < ReadReplica.stampEvery { return response }
        try await request.db.sql.update(User.schema).set("last_write_at", to: now).where("id", .equal, id).run()
        return response
    }
}

/// When a signed-in person last wrote (read-your-writes with a replica).
struct AddUserLastWrite: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(User.schema).field("last_write_at", .datetime).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(User.schema).deleteField("last_write_at").update()
    }
}
