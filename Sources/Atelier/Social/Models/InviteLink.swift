import Fluent
import Foundation

/// A link a person sends to bring someone in (social.md): whoever signs up through it, or accepts
/// it signed in, is connected with the inviter. It works once, for `InviteLinkService.lifetime`.
/// Only the token's hash is kept.
final class InviteLink: Model, @unchecked Sendable {
    static let schema = "invite_links"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "inviter_id") var inviterID: UUID
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "used_by") var usedBy: UUID?
    @OptionalField(key: "used_at") var usedAt: Date?

    init() {}
}
