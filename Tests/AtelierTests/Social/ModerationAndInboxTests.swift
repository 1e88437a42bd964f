import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Social: reports, moderation and the inbox")
struct ModerationAndInboxTests {
    @Test("friend request, acceptance, reaction and comment each land in the right inbox; unread count and marking read")
    func inbox() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana")
            let ben = try await t.signUp(name: "Ben")
            try await t.befriend(ana, ben)
            t.clock.advance(by: 1)
            let post = try await t.createdPost(ana)
            try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"heart"}"#, token: ben.accessToken)
            t.clock.advance(by: 1)
            try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"Great coat"}"#, token: ben.accessToken)
            // Her own reaction and comment notify nobody.
            try await t.send(.PUT, "/api/v1/posts/\(post.id)/reaction", json: #"{"kind":"fire"}"#, token: ana.accessToken)
            try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"Thanks"}"#, token: ana.accessToken)

            let anas = try await t.notifications(ana)
            #expect(anas.items.map(\.kind) == ["comment", "reaction", "friendAccepted"])
            #expect(anas.unreadCount == 3)
            #expect(anas.items[0].text.contains("Great coat") && anas.items[0].link == "atelier://posts/\(post.id)")
            #expect(anas.items[1].text.contains("❤️") && anas.items[1].actor?.displayName == "Ben")
            let bens = try await t.notifications(ben)
            #expect(bens.items.map(\.kind) == ["friendRequest"])

            #expect(try await t.send(.POST, "/api/v1/me/notifications/\(anas.items[0].id)/read", token: ana.accessToken).status == .noContent)
            #expect(try await t.send(.POST, "/api/v1/me/notifications/\(anas.items[0].id)/read", token: ben.accessToken).status == .notFound)
            struct Count: Decodable { var count: Int }
            #expect(try await t.send(.GET, "/api/v1/me/notifications/unread-count", token: ana.accessToken).content.decode(Count.self).count == 2)
            #expect(try await t.send(.POST, "/api/v1/me/notifications/read-all", token: ana.accessToken).status == .noContent)
            #expect(try await t.notifications(ana).unreadCount == 0)
        }
    }

    @Test("an inbox entry is written with its change or not at all")
    func sameTransaction() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana")
            let post = try await t.createdPost(ana)
            // A comment that fails to save (its post vanished mid-way) leaves no entry behind.
            let ben = try await t.signUp(name: "Ben")
            let user = try #require(try await User.find(UUID(uuidString: ben.user.id), on: t.app.db))
            let ghost = try #require(try await Post.find(UUID(uuidString: post.id), on: t.app.db))
            ghost.id = UUID()
            await #expect(throws: (any Error).self) {
                _ = try await CommentService(db: t.app.db, core: t.app.core, live: t.app.atelier.live).add(to: ghost, by: user, body: "hello")
            }
            #expect(try await InboxEntry.query(on: t.app.db).filter(\.$recipientID == UUID(uuidString: ana.user.id)!).count() == 0)
        }
    }

    @Test("a report goes to the admins' queue; hiding takes the post from everyone but its author; suspending hides the account")
    func moderation() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Poster")
            let friend = try await t.signUp(name: "Reporter")
            let admin = try await t.signUp(name: "Admin")
            try await t.makeAdmin(admin)
            try await t.befriend(author, friend)
            let post = try await t.createdPost(author, caption: "questionable")

            let bad = try await t.send(.POST, "/api/v1/reports", json: #"{"subjectType":"shoe","subjectId":"\#(post.id)","reason":"x"}"#,
                                       token: friend.accessToken)
            #expect(try bad.problem().fields == ["subjectType"])
            let report = try await t.send(.POST, "/api/v1/reports", json: #"{"subjectType":"photo","subjectId":"\#(post.photo.id)","reason":"Not an outfit"}"#,
                                          token: friend.accessToken)
            #expect(report.status == .created, "\(report.body.string)")
            struct ReportBody: Decodable { var id: String; var subjectType: String; var subjectId: String; var status: String; var excerpt: String? }
            let filed = try report.content.decode(ReportBody.self)
            #expect(filed.subjectId == post.id && filed.excerpt == "questionable")

            #expect(try await t.send(.GET, "/api/v1/admin/reports", token: friend.accessToken).status == .forbidden)
            struct ReportPage: Decodable { var items: [ReportBody] }
            let queue = try await t.send(.GET, "/api/v1/admin/reports", token: admin.accessToken).content.decode(ReportPage.self)
            #expect(queue.items.map(\.id).contains(filed.id))

            let hide = try await t.send(.POST, "/api/v1/admin/reports/\(filed.id)/resolve", json: #"{"action":"hide"}"#, token: admin.accessToken)
            #expect(try hide.content.decode(ReportBody.self).status == "resolved")
            #expect(try await t.send(.POST, "/api/v1/admin/reports/\(filed.id)/resolve", json: #"{"action":"hide"}"#, token: admin.accessToken)
                .status == .conflict)
            #expect(try await t.send(.GET, "/api/v1/posts/\(post.id)", token: friend.accessToken).status == .notFound)
            #expect(try await t.friendsFeed(friend).items.isEmpty)
            let own = try await t.send(.GET, "/api/v1/posts/\(post.id)", token: author.accessToken).content.decode(PostBody.self)
            #expect(own.hidden)

            // A profile report, then suspension: the account disappears from search and profiles.
            let profileReport = try await t.send(.POST, "/api/v1/reports",
                                                 json: #"{"subjectType":"profile","subjectId":"\#(author.user.id)","reason":"Spam"}"#,
                                                 token: friend.accessToken).content.decode(ReportBody.self)
            let refusal = try await t.send(.POST, "/api/v1/admin/reports/\(profileReport.id)/resolve", json: #"{"action":"hide"}"#,
                                           token: admin.accessToken)
            #expect(try refusal.problem().fields == ["action"])
            let suspend = try await t.send(.POST, "/api/v1/admin/reports/\(profileReport.id)/resolve", json: #"{"action":"suspend"}"#,
                                           token: admin.accessToken)
            #expect(suspend.status == .ok, "\(suspend.body.string)")
            #expect(try await t.send(.GET, "/api/v1/users/\(author.user.id)", token: friend.accessToken).status == .notFound)
            let stored = try #require(try await User.find(UUID(uuidString: author.user.id), on: t.app.db))
            #expect(stored.suspendedAt != nil)
        }
    }
}
