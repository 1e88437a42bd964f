import Fluent
import Foundation
import SQLKit

/// The mails about the account itself (verification, password reset) and their single-use tokens.
struct AccountMailer {
    static let tokenLifetime: TimeInterval = 3600

    let db: any Database
    let core: CoreServices
    let mailOutbox: MailOutbox

    private var now: Date { core.clock.now() }
    private var baseURL: String { core.config.publicBaseURL }

    func sendVerification(to user: User, email: String) async throws {
        let token = try await makeToken(for: user, purpose: .verifyEmail, email: email)
        try await mailOutbox.enqueue(
            Mail(
                to: email, subject: "Confirm your email for Atelier",
                text: """
                    Hello \(user.displayName),

                    Confirm that \(email) is your address by opening this link within an hour:

                    \(baseURL)/verify-email?token=\(token)

                    If you did not ask for this, ignore this mail.
                    """), on: db)
    }

    func sendPasswordReset(to user: User, email: String) async throws {
        let token = try await makeToken(for: user, purpose: .resetPassword, email: email)
        try await mailOutbox.enqueue(
            Mail(
                to: email, subject: "Reset your Atelier password",
                text: """
                    Hello \(user.displayName),

                    Someone (hopefully you) asked to reset the password of your Atelier account.
                    Open this link within an hour to choose a new one:

                    \(baseURL)/reset-password?token=\(token)

                    If you did not ask for this, ignore this mail; your password stays as it is.
                    """), on: db)
    }

    /// Spends a token: returns it when it exists, has this purpose, is unexpired and unused.
    func consume(_ presented: String, purpose: AccountToken.Purpose) async throws -> AccountToken? {
        guard let token = try await AccountToken.query(on: db)
            .filter(\.$tokenHash == TokenHash.sha256(presented)).filter(\.$purpose == purpose.rawValue).first(),
            token.usedAt == nil, token.expiresAt > now,
            let sql = db as? any SQLDatabase
        else { return nil }
        let claimed = try await sql.update(AccountToken.schema)
            .set("used_at", to: now)
            .where("id", .equal, token.id!)
            .where("used_at", .is, SQLLiteral.null)
            .returning("id").all()
        return claimed.count == 1 ? token : nil
    }

    private func makeToken(for user: User, purpose: AccountToken.Purpose, email: String) async throws -> String {
        let token = TokenHash.randomToken()
        try await AccountToken(
            userID: try user.requireID(), purpose: purpose, tokenHash: TokenHash.sha256(token), email: email,
            expiresAt: now.addingTimeInterval(Self.tokenLifetime), now: now
        ).create(on: db)
        return token
    }
}
