import Fluent
import Foundation
import SQLKit

/// What editors do: authors, issues, articles and their texts per language, publishing,
/// scheduling and unpublishing. Every change readers could notice writes a `MagazineChange` at
/// the moment readers can notice it (now, or the issue's publish time), which feeds the sync.
struct MagazineEditor {
    struct ArticleText: Sendable {
        var slug: String
        var title: String
        var summary: String
        var markdown: String
    }

    let db: any Database
    let core: CoreServices
    let mediaLibrary: MediaLibrary

    private var now: Date { core.clock.now() }
    private var languages: MagazineLanguages { MagazineLanguages(core.config.magazineLanguages) }

    // MARK: Authors

    func createAuthor(name: String, bios: [String: String], pictureMediaID: UUID? = nil) async throws -> MagazineAuthor {
        let author = MagazineAuthor()
        author.id = .v7(at: now)
        author.createdAt = now
        return try await save(author, name: name, bios: bios, pictureMediaID: pictureMediaID)
    }

    func updateAuthor(_ author: MagazineAuthor, name: String, bios: [String: String], pictureMediaID: UUID?) async throws -> MagazineAuthor {
        try await save(author, name: name, bios: bios, pictureMediaID: pictureMediaID)
    }

    private func save(_ author: MagazineAuthor, name: String, bios: [String: String], pictureMediaID: UUID?) async throws -> MagazineAuthor {
        var errors = FieldErrors()
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > 120 || name.contains("\0") { errors.add("name", "must be 1 to 120 characters") }
        try languages.check(bios.keys, field: "bios", into: &errors)
        try errors.throwIfAny()
        author.name = name
        author.bios = bios.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        author.pictureMediaID = pictureMediaID
        author.updatedAt = now
        let now = self.now
        try await core.writeTransaction(on: db) { tx in
            try await author.save(on: tx)
            try await Self.log(.author, author.id!, at: now, on: tx)
        }
        return author
    }

    // MARK: Issues

    func createIssue(number: Int, labels: [String: String], coverMediaID: UUID? = nil) async throws -> MagazineIssue {
        var errors = FieldErrors()
        if number < 1 { errors.add("number", "must be 1 or more") }
        try languages.check(labels.keys, field: "labels", into: &errors)
        if labels[languages.default]?.isEmpty != false { errors.add("labels", "needs a label in \(languages.default)") }
        try errors.throwIfAny()
        let issue = MagazineIssue()
        issue.id = .v7(at: now)
        issue.number = number
        issue.labels = labels
        issue.pdfs = [:]
        issue.coverMediaID = coverMediaID
        issue.status = MagazineIssue.Status.draft.rawValue
        issue.createdAt = now
        issue.updatedAt = now
        do {
            try await issue.create(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("Issue \(number) exists already.", field: "number")
        }
        return issue
    }

    /// Readers see the issue (and its published articles) from `date` on: now for publishing,
    /// later for scheduling.
    func publish(_ issue: MagazineIssue, at date: Date? = nil) async throws {
        let now = self.now
        let firstPublication = issue.issueStatus != .published
        // Publishing what is out already keeps its date.
        let publishAt = !firstPublication && date == nil ? (issue.publishAt ?? now) : max(date ?? now, now)
        issue.status = (publishAt > now ? MagazineIssue.Status.scheduled : .published).rawValue
        issue.publishAt = publishAt
        issue.updatedAt = now
        let issueID = try issue.requireID()
        let languages = self.languages
        try await core.writeTransaction(on: db) { tx in
            try await issue.update(on: tx)
            if firstPublication, issue.issueStatus == .published { try await MagazineReaders.announce(issue, on: tx, languages: languages, now: now) }
            try await Self.log(.issue, issueID, at: publishAt, on: tx)
            for article in try await MagazineArticle.query(on: tx).filter(\.$issueID == issueID).all() where article.isPublished {
                try await Self.log(.article, article.id!, at: publishAt, on: tx)
            }
        }
    }

    /// Marks scheduled issues whose time has come as published (readers see them from their time
    /// on regardless); returns how many. The job runner calls it.
    @discardableResult
    func publishDue() async throws -> Int {
        let now = self.now
        let due = try await MagazineIssue.query(on: db).filter(\.$status == MagazineIssue.Status.scheduled.rawValue)
            .filter(\.$publishAt <= now).all()
        let languages = self.languages
        var published = 0
        for issue in due {
            // Claimed by a conditional update: an editor's unpublish in between, or another
            // instance's job runner, wins, and nobody is told twice.
            let claimed = try await core.writeTransaction(on: db) { tx -> Bool in
                let rows = try await tx.sql.raw("""
                    UPDATE \(ident: MagazineIssue.schema) SET status = \(bind: MagazineIssue.Status.published.rawValue), updated_at = \(bind: now)
                    WHERE id = \(bind: issue.id!) AND status = \(bind: MagazineIssue.Status.scheduled.rawValue) RETURNING id
                    """).all()
                guard !rows.isEmpty else { return false }
                try await MagazineReaders.announce(issue, on: tx, languages: languages, now: now)
                return true
            }
            if claimed { published += 1 }
        }
        return published
    }

    /// Takes the issue back to draft: readers lose it and its articles now.
    func unpublish(_ issue: MagazineIssue) async throws {
        let now = self.now
        issue.status = MagazineIssue.Status.draft.rawValue
        issue.updatedAt = now
        let issueID = try issue.requireID()
        try await core.writeTransaction(on: db) { tx in
            try await issue.update(on: tx)
            try await Self.log(.issue, issueID, at: now, on: tx)
            for article in try await MagazineArticle.query(on: tx).filter(\.$issueID == issueID).all() {
                try await Self.log(.article, article.id!, at: now, on: tx)
            }
        }
    }

    // MARK: Articles

    func createArticle(in issue: MagazineIssue, position: Int, authors: [UUID], completeArticle: Bool = true, webURL: String? = nil,
                       leadMediaID: UUID? = nil) async throws -> MagazineArticle {
        if !completeArticle, webURL.flatMap(MarkdownRenderer.safeURL) == nil {
            throw Problem.invalid("webURL", "is needed (http or https) when the article is not complete in the app")
        }
        let article = MagazineArticle()
        article.id = .v7(at: now)
        article.issueID = try issue.requireID()
        article.position = position
        article.completeArticle = completeArticle
        article.webURL = webURL
        article.leadMediaID = leadMediaID
        article.status = MagazineArticle.Status.draft.rawValue
        article.createdAt = now
        article.updatedAt = now
        let known = try await MagazineAuthor.query(on: db).filter(\.$id ~~ authors).count()
        guard known == Set(authors).count else { throw Problem.invalid("authors", "names someone who is not an author") }
        try await core.writeTransaction(on: db) { tx in
            try await article.create(on: tx)
            for (position, authorID) in authors.enumerated() {
                let link = MagazineArticleAuthor()
                link.id = UUID()
                link.articleID = article.id!
                link.authorID = authorID
                link.position = position
                try await link.create(on: tx)
            }
        }
        return article
    }

    /// Writes the article's text in `lang` (Markdown rendered to safe HTML once, here).
    func setText(_ text: ArticleText, lang: String, of article: MagazineArticle) async throws {
        var errors = FieldErrors()
        try languages.check([lang], field: "lang", into: &errors)
        let slug = Slug.make(text.slug.isEmpty ? text.title : text.slug)
        if slug.isEmpty || slug.count > 120 { errors.add("slug", "must be 1 to 120 letters, digits or dashes") }
        let title = text.title.trimmingCharacters(in: .whitespacesAndNewlines)
        if title.isEmpty || title.count > 200 { errors.add("title", "must be 1 to 200 characters") }
        if text.summary.count > 1000 { errors.add("summary", "may be at most 1000 characters") }
        if text.markdown.utf8.count > 500_000 { errors.add("markdown", "may be at most 500 KB") }
        for (field, value) in [("title", title), ("summary", text.summary), ("markdown", text.markdown)] where value.contains("\0") {
            errors.add(field, "contains a NUL character")
        }
        try errors.throwIfAny()
        let articleID = try article.requireID()
        let row = try await MagazineArticleText.query(on: db).filter(\.$articleID == articleID).filter(\.$lang == lang).first()
            ?? MagazineArticleText()
        if row.id == nil {
            row.id = .v7(at: now)
            row.articleID = articleID
            row.lang = lang
        }
        row.slug = slug
        row.title = title
        row.summary = text.summary.trimmingCharacters(in: .whitespacesAndNewlines)
        row.markdown = text.markdown
        row.html = MarkdownRenderer.html(text.markdown)
        row.updatedAt = now
        article.updatedAt = now
        let when = try await noticeTime(of: article)
        do {
            try await core.writeTransaction(on: db) { tx in
                try await row.save(on: tx)
                try await article.update(on: tx)
                if let when { try await Self.log(.article, articleID, at: when, on: tx) }
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("Another \(lang) article has the slug “\(slug)”.", field: "slug")
        }
    }

    func setPublished(_ published: Bool, _ article: MagazineArticle) async throws {
        guard try await MagazineArticleText.query(on: db).filter(\.$articleID == article.requireID()).count() > 0 || !published else {
            throw Problem.conflict("Write the article in at least one language before publishing it.")
        }
        article.status = (published ? MagazineArticle.Status.published : .draft).rawValue
        article.updatedAt = now
        let when = try await noticeTime(of: article)
        try await core.writeTransaction(on: db) { tx in
            try await article.update(on: tx)
            if let when { try await Self.log(.article, article.id!, at: when, on: tx) }
        }
    }

    /// When readers can notice a change to the article: now if its issue is out, the issue's
    /// publish time if it is scheduled, never while the issue is a draft.
    private func noticeTime(of article: MagazineArticle) async throws -> Date? {
        guard let issue = try await MagazineIssue.find(article.issueID, on: db) else { return nil }
        return Self.noticeTime(of: issue, now: now)
    }

    static func log(_ entity: MagazineChange.Entity, _ id: UUID, at date: Date, on db: any Database) async throws {
        let change = MagazineChange()
        change.id = UUID()
        change.entity = entity.rawValue
        change.entityID = id
        change.visibleAt = date
        try await change.create(on: db)
    }
}

/// The configured content languages; the first is the default every translation falls back to.
struct MagazineLanguages: Sendable {
    let all: [String]

    init(_ all: [String]) { self.all = all.isEmpty ? ["en"] : all }

    var `default`: String { all[0] }

    func check(_ codes: some Sequence<String>, field: String, into errors: inout FieldErrors) throws {
        let unknown = codes.filter { !all.contains($0) }
        if !unknown.isEmpty { errors.add(field, "uses languages that are not configured: \(unknown.sorted().joined(separator: ", ")) (configured: \(all.joined(separator: ", ")))") }
    }

    /// The language to serve for a request: `?lang=` (`query`), else the first language of
    /// `Accept-Language` (its `;q=` weight ignored), else the default.
    func requested(query: String?, acceptLanguage: String?) -> String {
        let first = acceptLanguage?.split(separator: ",").first.map { String($0.split(separator: ";").first ?? $0).trimmingCharacters(in: .whitespaces) }
        return requested(query ?? first)
    }

    /// The language to serve: the requested one when configured, otherwise the default.
    func requested(_ lang: String?) -> String {
        guard let lang = lang?.lowercased().split(separator: "-").first.map(String.init), all.contains(lang) else { return self.default }
        return lang
    }

    /// Of the available languages, the wanted one, else the default, else any.
    func pick(_ wanted: String, available: some Collection<String>) -> String? {
        if available.contains(wanted) { return wanted }
        if available.contains(self.default) { return self.default }
        return available.sorted().first
    }
}
