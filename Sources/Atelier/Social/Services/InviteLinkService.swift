import Fluent
import Foundation
import SQLKit

/// Invite links (social.md): a person makes one, sends it, and whoever signs up through it (or
/// accepts it signed in) is connected with them. A link works once and for 30 days.
struct InviteLinkService {
    static let lifetime: TimeInterval = 30 * 24 * 3600
    static let perDay = RateLimiter.Rule(limit: 20, window: 24 * 3600)

    struct Made: Sendable {
        var token: String
        var url: String
        var expiresAt: Date
    }

    /// Why a token does not work, for the caller to say so.
    enum Refusal: Error, Sendable { case unknown, used, expired, own }

    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    func make(by user: User) async throws -> Made {
        let userID = try user.requireID()
        try await core.rateLimiter.hit("invite-links:\(userID.idString)", Self.perDay)
        let token = TokenHash.randomToken()
        let link = InviteLink()
        link.id = .v7(at: now)
        link.tokenHash = TokenHash.sha256(token)
        link.inviterID = userID
        link.createdAt = now
        link.expiresAt = now.addingTimeInterval(Self.lifetime)
        try await core.writeTransaction(on: db) { tx in try await link.create(on: tx) }
        return Made(token: token, url: "\(core.config.publicBaseURL)/invite/\(token)", expiresAt: link.expiresAt)
    }

    struct Preview: Sendable {
        var inviter: User
        var expiresAt: Date
    }

    /// The inviter of a link that still works (for the landing page), or why it does not.
    func preview(_ token: String) async throws -> Result<Preview, Refusal> {
        guard let link = try await InviteLink.query(on: db).filter(\.$tokenHash == TokenHash.sha256(token)).first(),
            let inviter = try await User.find(link.inviterID, on: db), inviter.suspendedAt == nil
        else { return .failure(.unknown) }
        if link.usedAt != nil { return .failure(.used) }
        if link.expiresAt <= now { return .failure(.expired) }
        return .success(Preview(inviter: inviter, expiresAt: link.expiresAt))
    }

    /// Sign-up's part of a link: the new account is connected with the inviter in its own
    /// transaction, or there is no account and the problem names `inviteToken`.
    static func joining(_ token: String, core: CoreServices) -> @Sendable (User, any Database) async throws -> Void {
        { user, tx in
            if case .failure(let refusal) = try await InviteLinkService(db: tx, core: core).redeem(token, by: user.requireID(), on: tx) {
                throw signUpProblem(refusal)
            }
        }
    }

    /// Spends the link for `userID` and connects the two, inside the caller's transaction (a
    /// sign-up's, so a refused link leaves no account behind). Two people using one link at once:
    /// the conditional UPDATE lets one through.
    func redeem(_ token: String, by userID: UUID, on tx: any Database) async throws -> Result<UUID, Refusal> {
        let hash = TokenHash.sha256(token)
        guard let link = try await InviteLink.query(on: tx).filter(\.$tokenHash == hash).first() else { return .failure(.unknown) }
        if link.inviterID == userID { return .failure(.own) }
        if link.usedAt != nil { return .failure(.used) }
        if link.expiresAt <= now { return .failure(.expired) }
        guard try await !SocialGraph(db: tx).blockedEitherWay(link.inviterID, userID) else { return .failure(.unknown) }
        let sql = tx.sql
        let spent = try await sql.raw("""
            UPDATE \(ident: InviteLink.schema) SET used_by = \(bind: userID), used_at = \(bind: now)
            WHERE id = \(bind: link.requireID()) AND used_at IS NULL RETURNING id
            """).all()
        guard !spent.isEmpty else { return .failure(.used) }
        try await ConnectionService.connect(link.inviterID, userID, on: tx, now: now)
        return .success(link.inviterID)
    }

    /// A signed-in person accepts a link: connected with the inviter, whose id comes back.
    func accept(_ token: String, by user: User) async throws -> UUID {
        let userID = try user.requireID()
        let result = try await core.writeTransaction(on: db) { tx in try await redeem(token, by: userID, on: tx) }
        switch result {
        case .success(let inviterID): return inviterID
        case .failure(let refusal): throw Self.problem(refusal, field: "token")
        }
    }

    /// The problem a refused link is when accepted signed in (`token`, the path's).
    static func problem(_ refusal: Refusal, field: String) -> Problem {
        switch refusal {
        case .unknown: Problem.notFound("invite link")
        case .used: Problem.conflict("This invite link has been used already; ask for a new one.", field: field)
        case .expired: Problem.conflict("This invite link has expired; ask for a new one.", field: field)
        case .own: Problem.invalid(field, "is your own invite link; send it to someone else")
        }
    }

    /// The problem a refused link is at sign-up: always the field's, so the form can say it.
    static func signUpProblem(_ refusal: Refusal) -> Problem {
        switch refusal {
        case .unknown, .own: Problem.invalid("inviteToken", "is not an invite link that works")
        case .used: Problem.invalid("inviteToken", "has been used already; ask for a new link")
        case .expired: Problem.invalid("inviteToken", "has expired; ask for a new link")
        }
    }
}
