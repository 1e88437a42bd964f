import FluentPostgresDriver
import Foundation
import NIOCore

/// Failures of what the server depends on (the database, the media store) rather than of the
/// request or of our code: the database restarting, a pool with no free connection, a media
/// folder that cannot be written. They answer `503` with `Retry-After`, so clients retry later
/// instead of reporting a bug; the cause is still logged.
enum TemporaryFailure {
    static let retryAfterSeconds = 5

    static func problem(for error: any Error) -> Problem? {
        guard let what = unavailable(error) else { return nil }
        return Problem(
            .serviceUnavailable, type: "https://atelier.dev/problems/temporarily-unavailable", title: "Temporarily unavailable",
            detail: "\(what) is not available at the moment. Try again in a few seconds.",
            headers: [("Retry-After", String(retryAfterSeconds))])
    }

    /// What is unavailable, or nil when the error is not a temporary failure.
    private static func unavailable(_ error: any Error) -> String? {
        switch error {
        case let error as PSQLError:
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return "The database"
            case .server:
                // Class 08 (connection exception) and 57 (operator intervention: shutting down, starting up).
                let state = error.serverInfo?[.sqlState] ?? ""
                return state.hasPrefix("08") || state.hasPrefix("57") ? "The database" : nil
            default:
                return nil
            }
        case is ConnectionPoolTimeoutError, is ConnectionPoolError:
            return "The database"
        case let error as SQLiteReadConnection.Failure where error.isBusy:
            // SQLite's write lock held past the busy timeout (another process writing, a long import).
            return "The database"
        case is NIOConnectionError, is ChannelError:
            return "A service the server depends on"
        case let error as any ServiceUnavailable:
            return error.unavailableService
        default:
            return nil
        }
    }
}

/// An error a domain throws when something it depends on is down (a store, a payment provider): the
/// request answers `503` with what is unavailable.
protocol ServiceUnavailable: Error {
    /// "Photo storage", "The card payment service": the subject of the problem's sentence.
    var unavailableService: String { get }
}

/// The media store could not take or give a file (a folder that is read-only or full, a bucket
/// that does not answer). Thrown by the stores; a `503`, never a `500`.
struct MediaStoreUnavailable: ServiceUnavailable, CustomStringConvertible {
    var what = "Photo storage"
    var unavailableService: String { what }
    var cause: String
    var description: String { "media store unavailable: \(cause)" }
}
