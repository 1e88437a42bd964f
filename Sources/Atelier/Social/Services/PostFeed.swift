import Fluent
import Foundation
import SQLKit

/// Lists of posts: the friends feed with its "post yours first" gate, my posts, one day of mine,
/// and the recap of a month or a year.
struct PostFeed {
    struct FriendsPage: Sendable {
        var posts: Page<Post>
        var today: LocalDay
        var postedToday: Bool
        /// Friends' posts of today (or later, across time zones) that wait until the viewer posts.
        var hiddenToday: Int
    }

    let db: any Database
    let core: CoreServices

    /// Friends' posts and mine, newest first. Friends' posts of the viewer's today or later show
    /// only once the viewer has posted today; older days stay visible.
    func friends(of viewer: User, page: PageRequest) async throws -> FriendsPage {
        let viewerID = try viewer.requireID()
        let today = LocalDay(core.clock.now(), in: LocalDay.zone(viewer.timeZone))
        let postedToday = try await Post.query(on: db).filter(\.$authorID == viewerID).filter(\.$day == today.description).count() > 0
        let friendIDs = try await activeFriends(of: viewerID)
        let rows = try await Post.query(on: db).group(.or) { visible in
            visible.filter(\.$authorID == viewerID)
            if !friendIDs.isEmpty {
                visible.group(.and) { friends in
                    friends.filter(\.$authorID ~~ friendIDs).filter(\.$hiddenAt == nil)
                    if !postedToday { friends.filter(\.$day < today.description) }
                }
            }
        }.newestFirst(page).all()
        let waiting = postedToday || friendIDs.isEmpty ? 0 : try await Post.query(on: db)
            .filter(\.$authorID ~~ friendIDs).filter(\.$hiddenAt == nil).filter(\.$day >= today.description).count()
        return FriendsPage(
            posts: Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }, today: today, postedToday: postedToday,
            hiddenToday: waiting)
    }

    func mine(_ userID: UUID, page: PageRequest) async throws -> Page<Post> {
        let rows = try await Post.query(on: db).filter(\.$authorID == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }

    /// "What did I wear on …": my post of that day, if any.
    func mine(_ userID: UUID, on rawDay: String) async throws -> (LocalDay, Post?) {
        guard let day = LocalDay(rawDay) else { throw Problem.invalid("date", "must be a day as YYYY-MM-DD") }
        let post = try await Post.query(on: db).filter(\.$authorID == userID).filter(\.$day == day.description).first()
        return (day, post)
    }

    /// All my posts of a month ("2026-11") or a year ("2026"), oldest first.
    func recap(_ userID: UUID, month: String?, year: String?) async throws -> (period: String, from: LocalDay, to: LocalDay, posts: [Post]) {
        let period: String
        let from: LocalDay
        let to: LocalDay
        switch (month, year) {
        case (let month?, nil):
            guard let first = LocalDay(month + "-01") else { throw Problem.invalid("month", "must be a month as YYYY-MM") }
            let last = (28...31).reversed().lazy.compactMap { LocalDay(month + "-" + String(format: "%02d", $0)) }.first!
            (period, from, to) = (month, first, last)
        case (nil, let year?):
            guard year.count == 4, let first = LocalDay(year + "-01-01"), let last = LocalDay(year + "-12-31") else {
                throw Problem.invalid("year", "must be a year as YYYY")
            }
            (period, from, to) = (year, first, last)
        default:
            throw Problem.validation(
                [.init(field: "month", message: "give either month or year"), .init(field: "year", message: "give either month or year")],
                detail: "Give exactly one of month (YYYY-MM) and year (YYYY).")
        }
        let posts = try await Post.query(on: db).filter(\.$authorID == userID)
            .filter(\.$day >= from.description).filter(\.$day <= to.description).sort(\.$day).all()
        return (period, from, to, posts)
    }

    /// The viewer's friends whose accounts are not suspended.
    /// Trending in the person's circle (issue 51): the posts they may see now (their own and their
    /// friends', with the same gate as the feed) with the most reactions in the last seven days, most
    /// first. Posts are for friends only, so "near" is the circle, not a place.
    func trending(for viewer: User, limit: Int) async throws -> [Post] {
        let viewerID = try viewer.requireID()
        let now = core.clock.now()
        let today = LocalDay(now, in: LocalDay.zone(viewer.timeZone))
        let postedToday = try await Post.query(on: db).filter(\.$authorID == viewerID).filter(\.$day == today.description).count() > 0
        let authors = try await activeFriends(of: viewerID) + [viewerID]
        let sql = db.sql
        var gate: SQLQueryString = ""
        if !postedToday { gate = " AND (p.author_id = \(bind: viewerID) OR p.day < \(bind: today.description))" }
        let rows = try await sql.raw("""
            SELECT p.id AS id, COUNT(*) AS n FROM \(ident: PostReaction.schema) r JOIN \(ident: Post.schema) p ON p.id = r.post_id
            WHERE r.created_at >= \(bind: now.addingTimeInterval(-Self.trendingWindow)) AND p.hidden_at IS NULL
              AND p.author_id IN (\(binds: authors))\(gate)
            GROUP BY p.id ORDER BY n DESC, p.id DESC LIMIT \(bind: limit)
            """).all()
        let ids = try rows.map { try $0.decode(column: "id", as: UUID.self) }
        let posts = try await Post.query(on: db).filter(\.$id ~~ ids).all()
        return posts.inOrder(of: ids) { $0.id! }
    }

    static let trendingWindow: TimeInterval = 7 * 24 * 3600

    private func activeFriends(of userID: UUID) async throws -> [UUID] {
        let ids = try await SocialGraph(db: db).friendIDs(of: userID)
        guard !ids.isEmpty else { return [] }
        return try await User.query(on: db).filter(\.$id ~~ ids).filter(\.$suspendedAt == nil).all(\.$id)
    }
}
