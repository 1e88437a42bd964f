import Fluent
import Foundation
import SQLKit

/// What a signed-in reader does with articles: bookmarks, ratings, comments, and the wish to be
/// told of new issues. Only visible articles can be bookmarked, rated or commented on.
struct MagazineReaders {
    struct RatingSummary: Sendable {
        var average: Double?
        var count: Int
        var mine: Int?
    }

    static let maxComment = 1000

    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    func visibleArticle(_ id: UUID) async throws -> MagazineArticle {
        guard let article = try await MagazineArticle.find(id, on: db), article.isPublished,
            let issue = try await MagazineIssue.find(article.issueID, on: db), issue.isVisible(at: now)
        else { throw Problem.notFound("article") }
        return article
    }

    // MARK: Bookmarks

    func bookmark(_ article: MagazineArticle, for userID: UUID) async throws {
        let row = MagazineBookmark()
        row.id = .v7(at: now)
        row.userID = userID
        row.articleID = try article.requireID()
        row.createdAt = now
        do {
            try await row.create(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            // Bookmarked already.
        }
    }

    func removeBookmark(_ articleID: UUID, for userID: UUID) async throws {
        try await MagazineBookmark.query(on: db).filter(\.$userID == userID).filter(\.$articleID == articleID).delete()
    }

    func hasBookmarked(_ articleID: UUID, userID: UUID) async throws -> Bool {
        try await MagazineBookmark.query(on: db).filter(\.$userID == userID).filter(\.$articleID == articleID).count() > 0
    }

    /// The reader's bookmarked articles that are still visible, newest bookmark first.
    func bookmarks(of userID: UUID, page: PageRequest) async throws -> (Page<MagazineBookmark>, [MagazineArticle]) {
        let rows = try await MagazineBookmark.query(on: db).filter(\.$userID == userID).newestFirst(page).all()
        let result = Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
        var articles: [MagazineArticle] = []
        for row in result.items {
            if let article = try? await visibleArticle(row.articleID) { articles.append(article) }
        }
        return (result, articles)
    }

    // MARK: Ratings

    func rate(_ article: MagazineArticle, stars: Int, by userID: UUID) async throws -> RatingSummary {
        guard (1...5).contains(stars) else { throw Problem.invalid("stars", "must be 1 to 5") }
        let articleID = try article.requireID()
        let now = self.now
        try await core.writeTransaction(on: db) { tx in
            if let existing = try await MagazineRating.query(on: tx).filter(\.$userID == userID).filter(\.$articleID == articleID).first() {
                existing.stars = stars
                existing.updatedAt = now
                try await existing.update(on: tx)
            } else {
                let row = MagazineRating()
                row.id = .v7(at: now)
                row.userID = userID
                row.articleID = articleID
                row.stars = stars
                row.updatedAt = now
                try await row.create(on: tx)
            }
        }
        return try await rating(of: articleID, viewer: userID)
    }

    func unrate(_ articleID: UUID, by userID: UUID) async throws -> RatingSummary {
        try await MagazineRating.query(on: db).filter(\.$userID == userID).filter(\.$articleID == articleID).delete()
        return try await rating(of: articleID, viewer: userID)
    }

    func rating(of articleID: UUID, viewer: UUID?) async throws -> RatingSummary {
        let row = try await db.sql.select()
            .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            // PostgreSQL sums integers as NUMERIC; a cast reads the same on both databases.
            .column(SQLRaw("CAST(SUM(stars) AS BIGINT)"), as: "total")
            .from(MagazineRating.schema).where("article_id", .equal, articleID).first()
        let count = try row?.decode(column: "n", as: Int.self) ?? 0
        let total = try row?.decode(column: "total", as: Int?.self) ?? nil
        let mine = try await viewer.asyncMap {
            try await MagazineRating.query(on: db).filter(\.$userID == $0).filter(\.$articleID == articleID).first()?.stars
        } ?? nil
        let average = count > 0 ? (Double(total ?? 0) / Double(count) * 10).rounded() / 10 : nil
        return RatingSummary(average: average, count: count, mine: mine)
    }

    // MARK: Comments

    func comment(on article: MagazineArticle, by author: User, body raw: String) async throws -> MagazineComment {
        let body = try PlainText.comment(raw, maxLength: Self.maxComment)
        let comment = MagazineComment()
        comment.id = .v7(at: now)
        comment.articleID = try article.requireID()
        comment.authorID = try author.requireID()
        comment.body = body
        comment.createdAt = now
        try await comment.create(on: db)
        return comment
    }

    /// Oldest first; hidden comments only to their author; people blocked either way left out.
    func comments(on articleID: UUID, viewer: UUID, page: PageRequest) async throws -> Page<MagazineComment> {
        let hidden = try await SocialGraph(db: db).blockedPeople(of: viewer)
        let query = MagazineComment.query(on: db).filter(\.$articleID == articleID)
            .group(.or) { $0.filter(\.$hiddenAt == nil).filter(\.$authorID == viewer) }
        if !hidden.isEmpty { query.filter(\.$authorID !~ Array(hidden)) }
        if let cursor = page.cursor { query.filter(\.$id > cursor.id) }
        let rows = try await query.sort(\.$id, .ascending).limit(page.limit + 1).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    static func canDelete(_ comment: MagazineComment, by user: User) -> Bool {
        comment.authorID == user.id || user.isEditor || user.isAdmin
    }

    /// Its author, or an editor moderating.
    func deleteComment(_ id: UUID, on articleID: UUID, by user: User) async throws {
        guard let comment = try await MagazineComment.query(on: db).filter(\.$id == id).filter(\.$articleID == articleID).first(),
            comment.hiddenAt == nil || Self.canDelete(comment, by: user)
        else { throw Problem.notFound("comment") }
        guard Self.canDelete(comment, by: user) else {
            throw Problem(.forbidden, detail: "Only its author or an editor may delete a comment.")
        }
        try await comment.delete(on: db)
    }

    // MARK: New-issue notices

    func setSubscribed(_ subscribed: Bool, userID: UUID) async throws {
        if subscribed {
            let row = MagazineSubscription()
            row.id = .v7(at: now)
            row.userID = userID
            row.createdAt = now
            do { try await row.create(on: db) } catch let error as any DatabaseError where error.isConstraintFailure {}
        } else {
            try await MagazineSubscription.query(on: db).filter(\.$userID == userID).delete()
        }
    }

    func isSubscribed(_ userID: UUID) async throws -> Bool {
        try await MagazineSubscription.query(on: db).filter(\.$userID == userID).count() > 0
    }

    /// Inbox entries for every subscriber, on the transaction that publishes the issue.
    static func announce(_ issue: MagazineIssue, on tx: any Database, languages: MagazineLanguages, now: Date) async throws {
        let issueID = try issue.requireID()
        let path = issueID.idString
        let label = issue.labels[languages.default] ?? "Issue \(issue.number)"
        for userID in try await MagazineSubscription.query(on: tx).all(\.$userID) {
            try await InboxService.record(.init(
                recipientID: userID, kind: .magazineIssue, actorID: nil, message: .magazineIssue(title: label),
                link: "atelier://magazine/issues/\(path)", webPath: "/magazine/issues/\(path)"), on: tx, now: now)
        }
    }
}
