import Fluent
import Foundation

/// A push token (APNs or FCM). A token belongs to one account at a time.
final class Device: Model, @unchecked Sendable {
    static let schema = "devices"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "token") var token: String
    @Field(key: "platform") var platform: String
    @OptionalField(key: "app_version") var appVersion: String?
    @OptionalField(key: "locale") var locale: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A provider account (Apple, Google, Facebook) linked to a user.
final class SocialIdentity: Model, @unchecked Sendable {
    static let schema = "social_identities"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "provider") var provider: String
    @Field(key: "subject") var subject: String
    @OptionalField(key: "email") var email: String?
    @Field(key: "created_at") var createdAt: Date

    init() {}

    init(userID: UUID, provider: String, subject: String, email: String?, now: Date) {
        self.id = .v7(at: now)
        self.$user.id = userID
        self.provider = provider
        self.subject = subject
        self.email = email
        self.createdAt = now
    }
}
