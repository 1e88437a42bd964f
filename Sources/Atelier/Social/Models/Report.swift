import Fluent
import Foundation

/// Someone reported a post, comment, profile or photo; admins work through the open ones.
final class Report: Model, @unchecked Sendable {
    static let schema = "reports"

    enum Subject: String, CaseIterable, Sendable { case post, comment, profile, photo, magazineComment, review }
    enum Action: String, CaseIterable, Sendable { case hide, suspend, dismiss }

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "reporter_id") var reporterID: UUID
    @Field(key: "subject_type") var subjectType: String
    /// The post, comment or user reported (a photo is reported through its post).
    @Field(key: "subject_id") var subjectID: UUID
    @OptionalField(key: "subject_author_id") var subjectAuthorID: UUID?
    @Field(key: "reason") var reason: String
    /// The caption, comment or name as it was when reported.
    @OptionalField(key: "excerpt") var excerpt: String?
    @OptionalField(key: "action") var action: String?
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "resolved_at") var resolvedAt: Date?
    @OptionalField(key: "resolved_by") var resolvedBy: UUID?

    init() {}
}
