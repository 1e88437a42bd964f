import Fluent
import Foundation
import SQLKit

/// Reports of posts, comments (on posts and on magazine articles), profiles and photos, and what admins do about them: hide the
/// content (it then shows to its author only), suspend its author, or dismiss the report.
struct ModerationService {
    static let maxReason = 500

    let db: any Database
    let core: CoreServices
    let live: LiveUpdates
    let mediaLibrary: MediaLibrary
    let moderationTargets: ModerationTargets

    /// Files a report about something the reporter can see (anything else is a 404).
    func report(by reporter: User, subjectType raw: String, subjectID: UUID, reason rawReason: String) async throws -> Report {
        let reporterID = try reporter.requireID()
        guard let subject = Report.Subject(rawValue: raw) else {
            throw Problem.invalid("subjectType", "must be one of \(Report.Subject.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let reason = rawReason.trimmingCharacters(in: .whitespacesAndNewlines)
        try PlainText.requireNoNUL(reason, field: "reason")
        guard (1...Self.maxReason).contains(reason.count) else {
            throw Problem.invalid("reason", "must be 1 to \(Self.maxReason) characters")
        }
        let posts = PostService(db: db, core: core, mediaLibrary: mediaLibrary)
        let report = Report()
        switch subject {
        case .post:
            let post = try await posts.visiblePost(subjectID, to: reporterID)
            (report.subjectID, report.subjectAuthorID, report.excerpt) = (post.id!, post.authorID, post.caption)
        case .photo:
            let postID = try await Post.query(on: db).filter(\.$mediaID == subjectID).first()?.id ?? subjectID
            let post = try await posts.visiblePost(postID, to: reporterID)
            (report.subjectID, report.subjectAuthorID, report.excerpt) = (post.id!, post.authorID, post.caption)
        case .comment:
            guard let found = try await PostComment.find(subjectID, on: db) else { throw Problem.notFound("comment") }
            let post = try await posts.visiblePost(found.postID, to: reporterID)
            let comment = try await CommentService(db: db, core: core, live: live).comment(subjectID, on: post, viewer: reporterID)
            (report.subjectID, report.subjectAuthorID, report.excerpt) = (comment.id!, comment.authorID, comment.body)
        case .magazineComment, .review:
            let found = try await registeredTarget(subject).find(subjectID, reporterID, db)
            (report.subjectID, report.subjectAuthorID, report.excerpt) = (found.id, found.authorID, found.excerpt)
        case .profile:
            let user = try await PeopleDirectory(db: db, core: core, mediaLibrary: mediaLibrary).visibleUser(subjectID, to: reporterID)
            (report.subjectID, report.subjectAuthorID, report.excerpt) = (user.id!, user.id!, "\(user.displayName) (@\(user.username))")
        }
        let now = core.clock.now()
        report.id = .v7(at: now)
        report.reporterID = reporterID
        report.subjectType = subject.rawValue
        report.reason = reason
        report.createdAt = now
        try await report.create(on: db)
        return report
    }

    /// Open reports oldest first (a queue), resolved ones newest first.
    func queue(open: Bool, page: PageRequest) async throws -> Page<Report> {
        let query = Report.query(on: db)
        if open {
            query.filter(\.$resolvedAt == nil)
            if let cursor = page.cursor { query.filter(\.$id > cursor.id) }
            query.sort(\.$id, .ascending).limit(page.limit + 1)
        } else {
            query.filter(\.$resolvedAt != nil).newestFirst(page)
        }
        return Page(fetched: try await query.all(), limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// Acts on a report; every open report of the same thing is resolved with it.
    func resolve(_ reportID: UUID, action raw: String, by admin: User) async throws -> Report {
        guard let action = Report.Action(rawValue: raw) else {
            throw Problem.invalid("action", "must be one of \(Report.Action.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let report = try await Report.find(reportID, on: db) else { throw Problem.notFound("report") }
        guard report.resolvedAt == nil else { throw Problem.conflict("This report was resolved already.") }
        let subject = Report.Subject(rawValue: report.subjectType)
        if action == .hide, subject == .profile || subject == nil {
            throw Problem.invalid("action", "cannot hide a profile; suspend the account or dismiss the report")
        }
        let now = core.clock.now()
        let adminID = try admin.requireID()
        let registered: ModerationTargets.Target? = if let subject, action == .hide { moderationTargets.target(subject) } else { nil }
        try await core.writeTransaction(on: db) { tx in
            // Claims every open report on the same thing; if another admin got there first, this
            // report is no longer open and nothing is done twice.
            let claimed = try await tx.sql.raw("""
                UPDATE \(ident: Report.schema) SET resolved_at = \(bind: now), action = \(bind: action.rawValue), resolved_by = \(bind: adminID)
                WHERE subject_id = \(bind: report.subjectID) AND resolved_at IS NULL RETURNING id
                """).all().map { try $0.decode(column: "id", as: UUID.self) }
            guard claimed.contains(reportID) else { throw Problem.conflict("This report was resolved already.") }
            switch action {
            case .hide where registered != nil:
                try await registered!.hide(report.subjectID, tx, now)
            case .hide where subject == .comment:
                try await PostComment.query(on: tx).filter(\.$id == report.subjectID).set(\.$hiddenAt, to: now).update()
            case .hide:
                try await Post.query(on: tx).filter(\.$id == report.subjectID).set(\.$hiddenAt, to: now).update()
            case .suspend:
                guard let authorID = report.subjectAuthorID, let author = try await User.find(authorID, on: tx) else {
                    throw Problem.conflict("The account behind this is gone already.")
                }
                _ = try await AdminUserService(db: tx, core: core).update(author, suspended: true, isEditor: nil, isAdmin: nil, by: admin)
            case .dismiss:
                break
            }
        }
        report.resolvedAt = now
        report.action = action.rawValue
        report.resolvedBy = admin.id
        return report
    }

    /// The target another domain registered for `subject` (a magazine comment, a review).
    private func registeredTarget(_ subject: Report.Subject) throws -> ModerationTargets.Target {
        guard let target = moderationTargets.target(subject) else {
            throw Problem.invalid("subjectType", "\(subject.rawValue) cannot be reported on this server")
        }
        return target
    }
}
