import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: day rules across zone changes and DST, public photos, blocked people in the inbox")
struct SocialRulesTests {
    @Test("a day whose midnight is skipped (Santiago, 6 Sep 2026) still ends at the next midnight")
    func skippedMidnight() throws {
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        let day = try #require(LocalDay("2026-09-06"))
        #expect(ISO8601DateFormatter().string(from: day.start(in: santiago)) == "2026-09-06T04:00:00Z")  // 01:00 −03
        #expect(ISO8601DateFormatter().string(from: day.end(in: santiago)) == "2026-09-07T03:00:00Z")  // 00:00 −03
        #expect(LocalDay("2026-02-29") == nil && LocalDay("2028-02-29")?.next.description == "2028-03-01")
    }

    @Test("changing time zone never gives a second post on a day already posted: days only move forward")
    func zoneHopping() async throws {
        try await TestApp.with { t in
            var s = try await t.signUp(name: "Traveller")
            t.clock.set(PostDayTests.nov20.addingTimeInterval(12 * 3600))  // 12:00 UTC on the 20th
            s = try await t.refreshed(s)
            #expect(try await t.createdPost(s).day == "2026-11-20")
            try await t.setTimeZone("Pacific/Kiritimati", for: s)  // 02:00 on the 21st there: a new day
            #expect(try await t.createdPost(s).day == "2026-11-21")
            try await t.setTimeZone("Etc/GMT+12", for: s)  // 00:00 on the 20th there: posted already
            let again = try await t.post(s)
            #expect(again.status == .conflict)
            // Posting opens when the 22nd begins at UTC−12.
            #expect(try again.problem().detail?.contains("2026-11-22T12:00:00Z") == true)
        }
    }

    @Test("a photo uploaded as public cannot become a friends-only post")
    func publicPhoto() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let upload = try await t.upload(try TestImages.png(width: 64, height: 80), contentType: "image/png", query: "?visibility=public",
                                            token: s.accessToken)
            let photo = try upload.content.decode(ImageBody.self).id
            let response = try await t.send(.POST, "/api/v1/posts", json: #"{"mediaId":"\#(photo)"}"#, token: s.accessToken)
            #expect(response.status == .unprocessableEntity)
            #expect(try response.problem().fields == ["mediaId"])
        }
    }

    @Test("notifications caused by someone who blocked me, or whom I blocked, are not shown")
    func inboxHidesBlocked() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Author")
            let fan = try await t.signUp(name: "Fan")
            try await t.befriend(author, fan)
            let post = try await t.createdPost(author)
            try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"hello"}"#, token: fan.accessToken)
            #expect(Set(try await t.notifications(author).items.map(\.kind)) == ["comment", "friendAccepted"])
            try await t.send(.PUT, "/api/v1/me/blocks/\(author.user.id)", token: fan.accessToken)
            let after = try await t.notifications(author)
            #expect(after.items.isEmpty && after.unreadCount == 0)
        }
    }

    @Test("NUL characters in text are a 422, not a database error")
    func nul() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.post(s, caption: "bad\u{0}caption")
            #expect(response.status == .unprocessableEntity)
            #expect(try response.problem().fields == ["caption"])
        }
    }
}

@Suite("Social: crossing friend requests")
struct CrossingRequestTests {
    @Test("two people asking each other at the same moment end up friends, with no request left")
    func crossing() async throws {
        try await TestApp.with { t in
            for _ in 0..<5 {
                let a = try await t.signUp(name: "Cross A")
                let b = try await t.signUp(name: "Cross B")
                async let first = t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(b.user.id)"}"#, token: a.accessToken)
                async let second = t.send(.POST, "/api/v1/friends/requests", json: #"{"userId":"\#(a.user.id)"}"#, token: b.accessToken)
                let (one, two) = try await (first, second)
                #expect(one.status == .created && two.status == .created)
                let friends = try await t.send(.GET, "/api/v1/friends", token: a.accessToken).content.decode(UserPageBody.self)
                #expect(friends.items.map(\.id) == [b.user.id.lowercased()])
                let ids = [UUID(uuidString: a.user.id)!, UUID(uuidString: b.user.id)!]
                #expect(try await FriendRequest.query(on: t.app.db).filter(\.$fromID ~~ ids).count() == 0)
            }
        }
    }
}
