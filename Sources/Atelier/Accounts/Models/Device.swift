import Fluent
import Foundation

/// A push token (APNs or FCM) or a browser's Web Push subscription (its endpoint is the token).
/// A token belongs to one account at a time; `updatedAt` is when it was last registered.
final class Device: Model, @unchecked Sendable {
    static let schema = "devices"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Parent(key: "user_id") var user: User
    @Field(key: "token") var token: String
    @Field(key: "platform") var platform: String
    @OptionalField(key: "app_version") var appVersion: String?
    @OptionalField(key: "locale") var locale: String?
    /// APNs: `production` or `sandbox` (a development build), and the app's bundle id (the topic).
    @OptionalField(key: "apns_environment") var apnsEnvironment: String?
    @OptionalField(key: "bundle_id") var bundleID: String?
    /// Web Push: the subscription's public key and auth secret (base64url).
    @OptionalField(key: "web_push_p256dh") var webPushP256dh: String?
    @OptionalField(key: "web_push_auth") var webPushAuth: String?
    /// The session that registered it: signing that session out removes the device.
    @OptionalField(key: "session_family_id") var sessionFamilyID: UUID?
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
