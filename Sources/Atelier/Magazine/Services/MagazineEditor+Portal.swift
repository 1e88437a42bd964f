import Fluent
import Foundation

/// What the editor portal needs beyond `MagazineEditor`'s core: every issue (drafts too),
/// changing an issue's number, labels and cover, and an article's position, byline, lead image
/// and web link. Like the rest of the editor, a change readers could notice writes a
/// `MagazineChange` at the moment they can notice it.
extension MagazineEditor {
    /// Every issue, drafts included, highest number first.
    func allIssues() async throws -> [MagazineIssue] {
        try await MagazineIssue.query(on: db).sort(\.$number, .descending).all()
    }

    func articles(of issue: MagazineIssue) async throws -> [MagazineArticle] {
        try await MagazineArticle.query(on: db).filter(\.$issueID == issue.requireID()).sort(\.$position).sort(\.$createdAt).all()
    }

    func texts(of article: MagazineArticle) async throws -> [String: MagazineArticleText] {
        let rows = try await MagazineArticleText.query(on: db).filter(\.$articleID == article.requireID()).all()
        return Dictionary(rows.map { ($0.lang, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The article's authors in byline order.
    func authorIDs(of article: MagazineArticle) async throws -> [UUID] {
        try await MagazineArticleAuthor.query(on: db).filter(\.$articleID == article.requireID()).sort(\.$position).all().map(\.authorID)
    }

    func allAuthors() async throws -> [MagazineAuthor] {
        try await MagazineAuthor.query(on: db).sort(\.$name).all()
    }

    func updateIssue(_ issue: MagazineIssue, number: Int, labels: [String: String], coverMediaID: UUID?) async throws {
        let portalNow = core.clock.now()
        let languages = MagazineLanguages(core.config.magazineLanguages)
        let labels = labels.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.value.isEmpty }
        var errors = FieldErrors()
        if number < 1 { errors.add("number", "must be 1 or more") }
        try languages.check(labels.keys, field: "labels", into: &errors)
        if labels[languages.default]?.isEmpty != false { errors.add("labels", "needs a label in \(languages.default)") }
        if labels.values.contains(where: { $0.count > 120 || $0.contains("\0") }) { errors.add("labels", "must be at most 120 characters") }
        try errors.throwIfAny()
        issue.number = number
        issue.labels = labels
        issue.coverMediaID = coverMediaID
        issue.updatedAt = portalNow
        let issueID = try issue.requireID()
        let when = Self.noticeTime(of: issue, now: portalNow)
        do {
            try await core.writeTransaction(on: db) { tx in
                try await issue.update(on: tx)
                if let when { try await Self.log(.issue, issueID, at: when, on: tx) }
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("Issue \(number) exists already.", field: "number")
        }
    }

    func updateArticle(_ article: MagazineArticle, position: Int, authors: [UUID], completeArticle: Bool, webURL: String?,
                       leadMediaID: UUID?) async throws {
        let portalNow = core.clock.now()
        let webURL = webURL?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        var errors = FieldErrors()
        if position < 0 || position > 10_000 { errors.add("position", "must be 0 to 10000") }
        if let webURL, MarkdownRenderer.safeURL(webURL) == nil || !webURL.lowercased().hasPrefix("http") {
            errors.add("webURL", "must be an http or https address")
        }
        if !completeArticle, webURL == nil { errors.add("webURL", "is needed (http or https) when the article is not complete in the app") }
        try errors.throwIfAny()
        let known = try await MagazineAuthor.query(on: db).filter(\.$id ~~ authors).count()
        guard known == Set(authors).count else { throw Problem.invalid("authors", "names someone who is not an author") }
        article.position = position
        article.completeArticle = completeArticle
        article.webURL = webURL
        article.leadMediaID = leadMediaID
        article.updatedAt = portalNow
        let articleID = try article.requireID()
        let issue = try await MagazineIssue.find(article.issueID, on: db)
        let when = issue.flatMap { Self.noticeTime(of: $0, now: portalNow) }
        try await core.writeTransaction(on: db) { tx in
            try await article.update(on: tx)
            try await MagazineArticleAuthor.query(on: tx).filter(\.$articleID == articleID).delete()
            var seen = Set<UUID>()
            for authorID in authors where seen.insert(authorID).inserted {
                let link = MagazineArticleAuthor()
                link.id = UUID()
                link.articleID = articleID
                link.authorID = authorID
                link.position = seen.count - 1
                try await link.create(on: tx)
            }
            if let when { try await Self.log(.article, articleID, at: when, on: tx) }
        }
    }

    /// Publishing at a later time (the portal's and the API's "schedule"): the time must be ahead.
    func schedule(_ issue: MagazineIssue, at date: Date) async throws {
        guard date > core.clock.now() else { throw Problem.invalid("publishAt", "must be in the future") }
        try await publish(issue, at: date)
    }

    /// The live preview: the sanitised HTML readers would get for `markdown`.
    static func preview(_ markdown: String) throws -> String {
        guard markdown.utf8.count <= 500_000 else { throw Problem.invalid("markdown", "may be at most 500 KB") }
        return MarkdownRenderer.html(markdown)
    }

    /// When readers can notice a change to the issue (or one of its articles): now once it is
    /// out, its publish time while scheduled, never while it is a draft (as `MagazineEditor`).
    static func noticeTime(of issue: MagazineIssue, now: Date) -> Date? {
        guard issue.issueStatus != .draft, let publishAt = issue.publishAt else { return nil }
        return max(now, publishAt)
    }
}
