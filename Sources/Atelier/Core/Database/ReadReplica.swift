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
    /// When the request's signed-in person last wrote, as the accounts know it (given at start-up).
    private let lastWrite: @Sendable (Request) -> Date?

    init(clock: any AppClock, lastWrite: @escaping @Sendable (Request) -> Date?) {
        self.clock = clock
        self.lastWrite = lastWrite
    }

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
                _ = try await app.db(Self.databaseID).sql.raw("SELECT 1").all()
                up.withLockedValue { $0 = true }
                app.logger.notice("The read replica answers again.")
            } catch {}
        }
    }

    /// Whether the request's reads should see the person's own latest writes (go to the primary).
    func wroteRecently(_ request: Request) -> Bool {
        guard let written = lastWrite(request) else { return false }
        return clock.now().timeIntervalSince(written) < Self.readYourWrites
    }
}

extension Request {
    /// Runs a read-only `body` on the replica when there is one, it answers and the person has not
    /// just written; otherwise, or when the replica fails meanwhile, on the primary.
    func reading<T>(_ body: (any Database) async throws -> T) async throws -> T {
        guard let replica = core.replica, replica.isUp else { return try await body(readDatabase) }
        if replica.wroteRecently(self) { return try await body(db) }
        do {
            return try await body(db(ReadReplica.databaseID))
        } catch where TemporaryFailure.problem(for: error) != nil {
            replica.markDown(error, logger: logger)
            return try await body(db)
        }
    }
}
