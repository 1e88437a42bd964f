import Fluent
import Foundation
import SQLKit

/// Token pairs for API clients: issue on sign-in, rotate on refresh (reuse of a rotated token
/// revokes the whole family), revoke on sign-out.
struct SessionService {
    static let refreshLifetime: TimeInterval = 30 * 24 * 3600

    struct Issued: Sendable {
        var accessToken: String
        var accessTokenExpiresAt: Date
        var refreshToken: String
        var refreshTokenExpiresAt: Date
        var familyID: UUID
    }

    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    func issue(for user: User) async throws -> Issued {
        let userID = try user.requireID()
        let family = SessionFamily(id: .v7(at: now), userID: userID, now: now)
        try await family.create(on: db)
        return try await issueTokens(userID: userID, familyID: family.id!)
    }

    func refresh(_ presented: String) async throws -> (User, Issued) {
        let invalid = Problem.unauthorized("The refresh token is invalid or expired. Sign in again.")
        guard let token = try await RefreshToken.query(on: db)
            .filter(\.$tokenHash == TokenHash.sha256(presented)).with(\.$family).first()
        else { throw invalid }
        let family = token.family
        guard family.revokedAt == nil else { throw invalid }
        guard token.usedAt == nil, try await markUsed(token) else {
            try await revoke(family: family, reason: "refresh token reuse")
            throw Problem.unauthorized("This refresh token was already used, so this session was signed out for safety. Sign in again.")
        }
        guard token.expiresAt > now else { throw invalid }
        guard let user = try await User.find(family.$user.id, on: db) else { throw invalid }
        if user.suspendedAt != nil { throw AccountProblems.suspended }
        family.lastUsedAt = now
        try await family.save(on: db)
        return (user, try await issueTokens(userID: family.$user.id, familyID: family.id!))
    }

    /// Signs out the session the refresh token belongs to. Unknown tokens are ignored: signing
    /// out is always safe to repeat.
    func revoke(refreshToken presented: String) async throws {
        guard let token = try await RefreshToken.query(on: db)
            .filter(\.$tokenHash == TokenHash.sha256(presented)).with(\.$family).first()
        else { return }
        try await revoke(family: token.family, reason: "sign-out")
    }

    func revokeAll(userID: UUID, reason: String) async throws {
        try await SessionFamily.query(on: db)
            .filter(\.$user.$id == userID).filter(\.$revokedAt == nil)
            .set(\.$revokedAt, to: now).set(\.$revokedReason, to: reason).update()
        // Signed out everywhere: no phone of those sessions gets this account's pushes.
        try await Device.query(on: db).filter(\.$user.$id == userID).filter(\.$sessionFamilyID != nil).delete()
    }

    private func revoke(family: SessionFamily, reason: String) async throws {
        guard family.revokedAt == nil else { return }
        family.revokedAt = now
        family.revokedReason = reason
        try await family.save(on: db)
        // The phone signed out: its pushes stop (notifications.md).
        try await Device.query(on: db).filter(\.$sessionFamilyID == family.requireID()).delete()
    }

    /// Claims the token for this refresh. Only one of two concurrent refreshes with the same
    /// token wins; the loser is treated as reuse.
    private func markUsed(_ token: RefreshToken) async throws -> Bool {
        guard let sql = db as? any SQLDatabase else { return false }
        let rows = try await sql.update(RefreshToken.schema)
            .set("used_at", to: now)
            .where("id", .equal, token.id!)
            .where("used_at", .is, SQLLiteral.null)
            .returning("id")
            .all()
        return rows.count == 1
    }

    private func issueTokens(userID: UUID, familyID: UUID) async throws -> Issued {
        let refresh = TokenHash.randomToken()
        let refreshExpiresAt = now.addingTimeInterval(Self.refreshLifetime)
        try await RefreshToken(
            id: .v7(at: now), familyID: familyID, tokenHash: TokenHash.sha256(refresh),
            expiresAt: refreshExpiresAt, now: now
        ).create(on: db)
        let access = try await core.accessTokens.issue(userID: userID, familyID: familyID)
        return Issued(
            accessToken: access.token, accessTokenExpiresAt: access.expiresAt, refreshToken: refresh,
            refreshTokenExpiresAt: refreshExpiresAt, familyID: familyID)
    }
}

enum AccountProblems {
    static let suspended = Problem(
        .forbidden, type: "https://atelier.dev/problems/account-suspended", title: "Account suspended",
        detail: "This account is suspended. Contact support if you think this is a mistake.")
    static let wrongCredentials = Problem.unauthorized("The email address or username, or the password, is wrong.")
}
