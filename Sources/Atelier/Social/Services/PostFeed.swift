import Fluent
import Foundation

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
    let services: AtelierServices

    /// Friends' posts and mine, newest first. Friends' posts of the viewer's today or later show
    /// only once the viewer has posted today; older days stay visible.
    func friends(of viewer: User, page: PageRequest) async throws -> FriendsPage {
        let viewerID = try viewer.requireID()
        let today = LocalDay(services.clock.now(), in: LocalDay.zone(viewer.timeZone))
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
    private func activeFriends(of userID: UUID) async throws -> [UUID] {
        let ids = try await SocialGraph(db: db).friendIDs(of: userID)
        guard !ids.isEmpty else { return [] }
        return try await User.query(on: db).filter(\.$id ~~ ids).filter(\.$suspendedAt == nil).all(\.$id)
    }
}
