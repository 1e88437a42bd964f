import Fluent
import FluentSQL
import SQLKit
import Vapor

/// The caller of an API operation, from `Authorization: Bearer <access token>`.
struct APICaller: Sendable {
    var user: User
    var familyID: UUID
}

extension Request {
    private struct CallerKey: StorageKey { typealias Value = APICaller }

    /// The caller if this request authenticated one already.
    var authenticatedCaller: APICaller? { storage[CallerKey.self] }

    /// The signed-in caller, or `401`. The token's session family must still be live, so a
    /// revoked session (sign-out, refresh-token reuse, password change) stops its access tokens too.
    func requireCaller() async throws -> APICaller {
        if let caller = storage[CallerKey.self] { return caller }
        guard let bearer = headers.bearerAuthorization else {
            throw Problem.unauthorized("Sign in first: send Authorization: Bearer <access token>.")
        }
        guard let verified = await atelier.accessTokens.verify(bearer.token) else {
            throw Problem.unauthorized("The access token is invalid or expired. Refresh it or sign in again.")
        }
        // One statement for the session and its user, on every signed-in request (issue 19: two
        // Fluent queries with eager loading cost more than many operations' own work), on a read
        // connection: a sign-out or suspension committed before this request began is seen.
        let sql = readDatabase.sql
        guard let row = try await sql.raw("""
            SELECT u.* FROM \(ident: SessionFamily.schema) f JOIN \(ident: User.schema) u ON u.id = f.user_id
            WHERE f.id = \(bind: verified.familyID) AND f.user_id = \(bind: verified.userID) AND f.revoked_at IS NULL
            """).first()
        else { throw Problem.unauthorized("This session was signed out. Sign in again.") }
        let user = try row.decode(fluentModel: User.self)
        if user.suspendedAt != nil { throw AccountProblems.suspended }
        let caller = APICaller(user: user, familyID: verified.familyID)
        storage[CallerKey.self] = caller
        return caller
    }
}

extension Request {
    /// The caller on public reads: nil when no token is sent; a bad token is still a `401`.
    func optionalCaller() async throws -> APICaller? {
        guard headers.bearerAuthorization != nil else { return nil }
        return try await requireCaller()
    }
}
