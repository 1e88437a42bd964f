import Fluent
import Foundation

/// One signed-in client: the chain of refresh tokens rotated from one sign-in.
/// Revoking the family signs that client out; access tokens carry its id and die with it.
final class SessionFamily: Model, @unchecked Sendable {
    static let schema = "session_families"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "last_used_at") var lastUsedAt: Date
    @OptionalField(key: "revoked_at") var revokedAt: Date?
    @OptionalField(key: "revoked_reason") var revokedReason: String?

    init() {}

    init(id: UUID, userID: UUID, now: Date) {
        self.id = id
        self.$user.id = userID
        self.createdAt = now
        self.lastUsedAt = now
    }
}

final class RefreshToken: Model, @unchecked Sendable {
    static let schema = "refresh_tokens"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "family_id") var family: SessionFamily
    /// SHA-256 of the token; the token itself is only ever in the client's hands.
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_at") var usedAt: Date?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(id: UUID, familyID: UUID, tokenHash: String, expiresAt: Date, now: Date) {
        self.id = id
        self.$family.id = familyID
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
        self.createdAt = now
    }
}
