import Fluent
import Foundation

/// The delta feed for offline copies: everything readers could notice since a cursor, as each
/// thing is now (an upsert when visible, a deletion when not), plus the next cursor.
///
/// The cursor is a time. A sync returns the changes whose `visibleAt` lies in [cursor, until)
/// and hands out `until` as the next cursor, where `until` is a few seconds before now: a change
/// whose transaction took its time-stamp before the sync but committed after it still lands
/// inside the next window, so no change is ever skipped, and a scheduled issue turns up in the
/// first sync after its publish time.
struct MagazineChanges {
    static let settle: TimeInterval = 2

    struct Deletion: Sendable, Equatable {
        var entity: MagazineChange.Entity
        var id: UUID
    }

    struct ChangeSet: Sendable {
        var issues: [MagazineCatalog.IssueView]
        var articles: [MagazineCatalog.ArticleView]
        var authors: [MagazineCatalog.AuthorView]
        var deletions: [Deletion]
        var nextCursor: String
    }

    let db: any Database
    let core: CoreServices

    func changes(since cursor: String?, lang: String) async throws -> ChangeSet {
        let since = try cursor.map(Self.decode)
        let until = core.clock.now().addingTimeInterval(-Self.settle)
        let query = MagazineChange.query(on: db).filter(\.$visibleAt < until)
        if let since { query.filter(\.$visibleAt >= since) }
        let rows = try await query.all()
        let catalog = MagazineCatalog(db: db, core: core)
        let now = core.clock.now()
        var ids: [MagazineChange.Entity: Set<UUID>] = [:]
        for row in rows {
            if let entity = MagazineChange.Entity(rawValue: row.entity) { ids[entity, default: []].insert(row.entityID) }
        }
        var deletions: [Deletion] = []

        // Issues and articles as they are now; the ones readers no longer see (or never saw) are deletions.
        let articleRows = try await MagazineArticle.query(on: db).filter(\.$id ~~ (ids[.article] ?? [])).all()
        let issueIDs = (ids[.issue] ?? []).union(articleRows.map(\.issueID))
        let issues = Dictionary(try await MagazineIssue.query(on: db).filter(\.$id ~~ issueIDs).all().map { ($0.id!, $0) },
                                uniquingKeysWith: { a, _ in a })
        let visibleArticles = articleRows.filter { $0.isPublished && issues[$0.issueID]?.isVisible(at: now) == true }
        let articleViews = try await catalog.articleViews(visibleArticles.sorted { $0.id!.uuidString < $1.id!.uuidString }, issues: issues, lang: lang)
        let shown = Set(articleViews.map { $0.article.id! })
        for id in (ids[.article] ?? []) where !shown.contains(id) { deletions.append(.init(entity: .article, id: id)) }
        var issueViews: [MagazineCatalog.IssueView] = []
        for id in (ids[.issue] ?? []).sorted(by: { $0.uuidString < $1.uuidString }) {
            if let issue = issues[id], issue.isVisible(at: now) {
                issueViews.append(catalog.issueView(issue, lang: lang, articles: []))
            } else {
                deletions.append(.init(entity: .issue, id: id))
            }
        }
        let authorRows = try await MagazineAuthor.query(on: db).filter(\.$id ~~ (ids[.author] ?? [])).all()
        // A first sync has nothing to delete.
        if since == nil { deletions = [] }
        return ChangeSet(
            issues: issueViews, articles: articleViews,
            authors: authorRows.sorted { $0.id!.uuidString < $1.id!.uuidString }.map { catalog.authorView($0, lang: lang) },
            deletions: deletions.sorted { ($0.entity.rawValue, $0.id.uuidString) < ($1.entity.rawValue, $1.id.uuidString) },
            nextCursor: Self.encode(until))
    }

    static func encode(_ date: Date) -> String {
        Base64URL.encode("t:\(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))")
    }

    static func decode(_ raw: String) throws -> Date {
        guard let text = Base64URL.decode(raw, maxLength: 64), text.hasPrefix("t:"), let ms = Int64(text.dropFirst(2)) else {
            throw Problem.invalidCursor()
        }
        return Date(timeIntervalSince1970: Double(ms) / 1000)
    }
}
