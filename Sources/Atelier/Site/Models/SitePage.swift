import Fluent
import Foundation

/// A page of the site's own text that admins keep (the privacy policy, the terms): Markdown, and
/// the HTML made from it when saved.
final class SitePage: Model, @unchecked Sendable {
    static let schema = "site_pages"

    enum Slug: String, CaseIterable, Sendable { case privacy, terms }

    @ID(custom: "slug", generatedBy: .user) var id: String?
    @Field(key: "title") var title: String
    @Field(key: "markdown") var markdown: String
    @Field(key: "html") var html: String
    @Field(key: "updated_at") var updatedAt: Date
    @OptionalField(key: "updated_by") var updatedBy: UUID?

    init() {}
}

/// A message sent through the contact form, kept for admins (who get an inbox entry for each).
final class FeedbackMessage: Model, @unchecked Sendable {
    static let schema = "feedback_messages"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @OptionalField(key: "user_id") var userID: UUID?
    @Field(key: "email") var email: String
    @Field(key: "subject") var subject: String
    @Field(key: "message") var message: String
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
