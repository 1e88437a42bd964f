import Fluent
import Foundation

/// A single-use token mailed to the user: email verification or password reset.
final class AccountToken: Model, @unchecked Sendable {
    static let schema = "account_tokens"

    enum Purpose: String, Codable, Sendable {
        case verifyEmail = "verify_email"
        case resetPassword = "reset_password"
    }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "purpose") var purpose: String
    @Field(key: "token_hash") var tokenHash: String
    /// The address the token was sent to (for verification: the address being verified).
    @Field(key: "email") var email: String
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_at") var usedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(userID: UUID, purpose: Purpose, tokenHash: String, email: String, expiresAt: Date, now: Date) {
        self.id = .v7(at: now)
        self.$user.id = userID
        self.purpose = purpose.rawValue
        self.tokenHash = tokenHash
        self.email = email
        self.expiresAt = expiresAt
        self.createdAt = now
    }
}
