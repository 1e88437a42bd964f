import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// A PostgreSQL streaming replica for read-only hot paths (`DATABASE_READ_URL`): feeds, search,
/// product pages and lists, the lookbook, the magazine. Reads go to the primary instead:
/// - for a few seconds after the person wrote (read-your-writes: a like shows in the lookbook at
///   once, whatever the replica's lag), known from `users.last_write_at`, which the write stamps;
/// - while the replica does not answer (a read that fails on it is run again on the primary, and a
///   probe brings the replica back once it answers).
final class ReadReplica: Sendable {
    static let databaseID = DatabaseID(string: "psql-read")
    static let readYourWrites: TimeInterval = 5
    /// How often a write stamps `last_write_at` at most (a burst of writes costs one stamp).
    static let stampEvery: TimeInterval = 1

    private let up = NIOLockedValueBox(true)
    private let clock: any AppClock

    init(clock: any AppClock) { self.clock = clock }

    var isUp: Bool { up.withLockedValue { $0 } }

    func markDown(_ error: any Error, logger: Logger) {
        if up.withLockedValue({ let was = $0; $0 = false; return was }) {
            logger.warning("The read replica does not answer; reads go to the primary: \(String(reflecting: error))")
        }
    }

    /// Every two seconds while down: one `SELECT 1`; an answer brings the replica back.
    func probe(_ app: Application) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(2))
            guard !isUp else { continue }
            do {
                _ = try await (app.db(Self.databaseID) as! any SQLDatabase).raw("SELECT 1").all()
                up.withLockedValue { $0 = true }
                app.logger.notice("The read replica answers again.")
            } catch {}
        }
    }

    /// Whether reads of `user` should see their own latest writes (go to the primary).
    func wroteRecently(_ user: User?) -> Bool {
        guard let written = user?.lastWriteAt else { return false }
        return clock.now().timeIntervalSince(written) < Self.readYourWrites
    }
}

extension Request {
    /// Runs a read-only `body` on the replica when there is one, it answers and the person has not
    /// just written; otherwise, or when the replica fails meanwhile, on the primary.
    func reading<T>(_ body: (any Database) async throws -> T) async throws -> T {
        guard let replica = atelier.replica, replica.isUp else { return try await body(readDatabase) }
        let user = authenticatedCaller?.user ?? webSessionUser
        if replica.wroteRecently(user) { return try await body(db) }
        do {
            return try await body(db(ReadReplica.databaseID))
        } catch where TemporaryFailure.problem(for: error) != nil {
            replica.markDown(error, logger: logger)
            return try await body(db)
        }
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
        try await (request.db as! any SQLDatabase).update(User.schema).set("last_write_at", to: now).where("id", .equal, id).run()
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
