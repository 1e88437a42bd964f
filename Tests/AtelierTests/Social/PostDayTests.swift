import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: one post per local day, and the friends feed's gate")
struct PostDayTests {
    /// 2026-11-20 00:00 UTC.
    static let nov20 = Date(timeIntervalSince1970: 1_795_132_800)

    @Test("posts at 23:30 and 00:10 local in UTC+14 and UTC−12 both succeed; a third the same day is a 409 saying when posting reopens")
    func localDays() async throws {
        try await TestApp.with { t in
            var east = try await t.signUp(name: "Kiri East")
            var west = try await t.signUp(name: "Baker West")
            try await t.setTimeZone("Pacific/Kiritimati", for: east)  // UTC+14
            try await t.setTimeZone("Etc/GMT+12", for: west)  // UTC−12 (POSIX sign)

            // East: 23:30 on the 20th local is 09:30 UTC on the 20th; 00:10 on the 21st is 10:10 UTC.
            t.clock.set(Self.nov20.addingTimeInterval(9.5 * 3600))
            east = try await t.refreshed(east)
            let eastLate = try await t.createdPost(east, caption: "late")
            #expect(eastLate.day == "2026-11-20" && eastLate.timeZone == "Pacific/Kiritimati")
            t.clock.set(Self.nov20.addingTimeInterval(10 * 3600 + 600))
            east = try await t.refreshed(east)
            let eastEarly = try await t.createdPost(east, caption: "early")
            #expect(eastEarly.day == "2026-11-21")
            t.clock.advance(by: 3600)
            east = try await t.refreshed(east)
            let eastThird = try await t.post(east)
            #expect(eastThird.status == .conflict)
            let problem = try eastThird.problem()
            #expect(problem.type.hasSuffix("already-posted-today"))
            // Midnight of the 22nd at UTC+14 is 10:00 UTC on the 21st; 22 h 50 min from 11:10 UTC.
            #expect(problem.detail?.contains("2026-11-21T10:00:00Z") == true, "\(problem.detail ?? "")")
            #expect(problem.detail?.contains("22 h 50 min") == true, "\(problem.detail ?? "")")
            #expect(eastThird.headers.first(name: "Retry-After") == String(22 * 3600 + 50 * 60))

            // West: 23:30 on the 20th local is 11:30 UTC on the 21st; 00:10 on the 21st is 12:10 UTC.
            t.clock.set(Self.nov20.addingTimeInterval(24 * 3600 + 11.5 * 3600))
            west = try await t.refreshed(west)
            let westLate = try await t.createdPost(west, caption: "late")
            #expect(westLate.day == "2026-11-20" && westLate.timeZone == "Etc/GMT+12")
            t.clock.set(Self.nov20.addingTimeInterval(24 * 3600 + 12 * 3600 + 600))
            west = try await t.refreshed(west)
            let westEarly = try await t.createdPost(west, caption: "early")
            #expect(westEarly.day == "2026-11-21")
            let westThird = try await t.post(west)
            #expect(westThird.status == .conflict)
            // Midnight of the 22nd at UTC−12 is 12:00 UTC on the 22nd.
            #expect(try westThird.problem().detail?.contains("2026-11-22T12:00:00Z") == true)
            // The refused attempts left no post behind.
            #expect(try await Post.query(on: t.app.db).filter(\.$authorID ~~ [UUID(uuidString: east.user.id)!, UUID(uuidString: west.user.id)!]).count() == 4)
        }
    }

    @Test("concurrent posts on one day: exactly one is taken")
    func concurrentPosts() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let photos = try await (0..<4).asyncMap { _ in try await t.uploadPhoto(token: s.accessToken, width: 64, height: 80) }
            let codes = try await withThrowingTaskGroup(of: UInt.self) { group in
                for photo in photos {
                    group.addTask { try await t.send(.POST, "/api/v1/posts", json: #"{"mediaId":"\#(photo)"}"#, token: s.accessToken).status.code }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.sorted() == [201, 409, 409, 409], "\(codes)")
        }
    }

    @Test("a friend who has not posted today sees older posts of friends but not today's; after posting, today's appear")
    func gate() async throws {
        try await TestApp.with { t in
            var ana = try await t.signUp(name: "Ana")
            var ben = try await t.signUp(name: "Ben")
            try await t.befriend(ana, ben)
            t.clock.set(Self.nov20.addingTimeInterval(12 * 3600))
            (ana, ben) = (try await t.refreshed(ana), try await t.refreshed(ben))
            let anaOld = try await t.createdPost(ana, caption: "yesterday")

            t.clock.advance(by: 24 * 3600)
            (ana, ben) = (try await t.refreshed(ana), try await t.refreshed(ben))
            let anaToday = try await t.createdPost(ana, caption: "today")

            let before = try await t.friendsFeed(ben)
            #expect(before.items.map(\.id) == [anaOld.id])
            #expect(before.today == "2026-11-21" && !before.postedToday && before.hiddenToday == 1)
            t.clock.advance(by: 60)
            ben = try await t.refreshed(ben)
            let benToday = try await t.createdPost(ben, caption: "mine")
            let after = try await t.friendsFeed(ben)
            #expect(after.items.map(\.id) == [benToday.id, anaToday.id, anaOld.id])
            #expect(after.postedToday && after.hiddenToday == 0)
            #expect(after.items[1].author.relationship == "friend")
            #expect(after.items[0].canEdit && !after.items[1].canEdit)

            // A stranger sees none of it; the author's own feed shows her posts whatever the gate.
            let stranger = try await t.signUp(name: "Stranger")
            #expect(try await t.friendsFeed(stranger).items.isEmpty)
            let anaFeed = try await t.friendsFeed(ana)
            #expect(anaFeed.items.map(\.id) == [benToday.id, anaToday.id, anaOld.id])
        }
    }

    @Test("my posts, a day's post, the recap of a month and a year; bad periods are 422")
    func history() async throws {
        try await TestApp.with { t in
            var s = try await t.signUp()
            var ids: [String] = []
            for offset in [0, 1, 12] {  // Nov 20, Nov 21, Dec 2
                t.clock.set(Self.nov20.addingTimeInterval(Double(offset) * 86_400 + 3600))
                s = try await t.refreshed(s)
                ids.append(try await t.createdPost(s, caption: "day \(offset)").id)
            }
            let mine = try await t.send(.GET, "/api/v1/me/posts", token: s.accessToken)
            #expect(try mine.content.decode(FeedLikePage.self).items.map(\.id) == ids.reversed())

            let day = try await t.send(.GET, "/api/v1/me/posts/days/2026-11-21", token: s.accessToken)
            struct DayBody: Decodable { var date: String; var post: PostBody? }
            #expect(try day.content.decode(DayBody.self).post?.id == ids[1])
            let empty = try await t.send(.GET, "/api/v1/me/posts/days/2026-11-22", token: s.accessToken)
            #expect(try empty.content.decode(DayBody.self).post == nil)

            struct RecapBody: Decodable { var period: String; var from: String; var to: String; var items: [PostBody] }
            let november = try await t.send(.GET, "/api/v1/me/posts/recap?month=2026-11", token: s.accessToken)
            let nov = try november.content.decode(RecapBody.self)
            #expect(nov.items.map(\.id) == [ids[0], ids[1]] && nov.from == "2026-11-01" && nov.to == "2026-11-30")
            let year = try await t.send(.GET, "/api/v1/me/posts/recap?year=2026", token: s.accessToken)
            #expect(try year.content.decode(RecapBody.self).items.map(\.id) == ids)

            for bad in ["recap", "recap?month=2026-13", "recap?month=2026-11&year=2026", "days/2026-02-30"] {
                let response = try await t.send(.GET, "/api/v1/me/posts/\(bad)", token: s.accessToken)
                #expect(response.status == .unprocessableEntity || response.status == .badRequest, "\(bad): \(response.status)")
            }
        }
    }
}

struct FeedLikePage: Decodable {
    var items: [PostBody]
    var nextCursor: String?
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
