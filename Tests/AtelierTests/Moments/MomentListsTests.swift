import Foundation
import Testing
import VaporTesting

@testable import Atelier

struct InvitationPageBody: Decodable {
    struct Item: Decodable {
        var moment: MomentBody
        var invitedBy: UserSummaryBody
        var state: String
    }
    var items: [Item]
    var nextCursor: String?
}

struct CheckInPageBody: Decodable {
    struct Item: Decodable {
        var moment: MomentBody
        var checkedInAt: String
    }
    var items: [Item]
    var nextCursor: String?
}

struct LastSeenBody: Decodable {
    var moment: MomentBody?
    var checkedInAt: String?
}

@Suite("Moments: a person's lists and notifications")
struct MomentListsTests {
    @Test("invitations newest first with the inviter, inbox entries for invitations and new photos, ignoring")
    func invitationsAndInbox() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Guest Ben"), try await t.signUp(name: "Guest Cara")]
            try await t.befriend(people[0], people[1])
            try await t.befriend(people[0], people[2])
            let first = try await t.createMoment(people[0], name: "Picnic", startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1], people[2]], to: first, by: people[0])
            t.clock.advance(by: 5)
            try await t.move(to: t.clock.now(), &people)
            let second = try await t.createMoment(people[0], name: "Concert", startIn: 600, endIn: 3600)
            _ = try await t.invite([people[1]], to: second, by: people[0])

            let invitations = try await t.send(.GET, "/api/v1/me/invitations", token: people[1].accessToken).content.decode(InvitationPageBody.self)
            #expect(invitations.items.map(\.moment.name) == ["Concert", "Picnic"])
            #expect(invitations.items.allSatisfy { $0.invitedBy.displayName == "Host Ana" && $0.state == "invited" })
            let inbox = try await t.notifications(people[1])
            #expect(inbox.items.filter { $0.kind == "momentInvitation" }.map(\.text) == ["Host Ana invited you to “Concert”", "Host Ana invited you to “Picnic”"])

            // Ben joins and checks in to the picnic; Cara ignores it. Ana's photos notify Ben only, once while unread.
            #expect(try await t.checkIn(first, people[1], at: TestPlace.north(0)).status == .ok)
            let ignored = try await t.send(.POST, "/api/v1/moments/\(first.id)/ignore", token: people[2].accessToken)
            #expect(try ignored.content.decode(MemberBody.self).state == "ignored")
            _ = try await t.momentPhoto(first, people[0])
            _ = try await t.momentPhoto(first, people[0])
            #expect(try await t.notifications(people[1]).items.filter { $0.kind == "momentPhoto" }.count == 1)
            #expect(try await t.notifications(people[2]).items.filter { $0.kind == "momentPhoto" }.isEmpty)
            // The ignored moment leaves Cara's list.
            let caraMine = try await t.send(.GET, "/api/v1/me/moments", token: people[2].accessToken).content.decode(MomentPageBody.self)
            #expect(caraMine.items.isEmpty)
        }
    }

    @Test("memory lane, moments in common, last seen at, and news")
    func personLists() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Guest Ben"), try await t.signUp(name: "Other Sam")]
            try await t.befriend(people[0], people[1])
            let party = try await t.createMoment(people[0], name: "Party", startIn: -60, endIn: 3600)
            let later = try await t.createMoment(people[0], name: "Later", startIn: 7200, endIn: 9000)
            let fair = try await t.createMoment(people[2], name: "Street fair", visibility: "public", startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1]], to: party, by: people[0])
            _ = try await t.invite([people[1]], to: later, by: people[0])
            #expect(try await t.checkIn(party, people[1], at: TestPlace.north(30)).status == .ok)
            #expect(try await t.checkIn(party, people[0], at: TestPlace.north(10)).status == .ok)

            let lane = try await t.send(.GET, "/api/v1/me/check-ins", token: people[1].accessToken).content.decode(CheckInPageBody.self)
            #expect(lane.items.map(\.moment.name) == ["Party"])
            let common = try await t.send(.GET, "/api/v1/users/\(people[1].user.id)/moments-in-common", token: people[0].accessToken)
            #expect(try common.content.decode(MomentPageBody.self).items.map(\.name) == ["Party"])
            let seen = try await t.send(.GET, "/api/v1/users/\(people[1].user.id)/last-seen", token: people[0].accessToken)
            #expect(seen.status == .ok)
            #expect(try seen.content.decode(LastSeenBody.self).moment?.name == "Party")
            // Sam may not see the private party: for him Ben was last seen nowhere.
            let samSeen = try await t.send(.GET, "/api/v1/users/\(people[1].user.id)/last-seen", token: people[2].accessToken)
            #expect(samSeen.status == .ok)
            #expect(try samSeen.content.decode(LastSeenBody.self).moment == nil)

            // News for Ben: the ongoing party, then the upcoming one he is invited to, then the public fair.
            let news = try await t.send(.GET, "/api/v1/moments/news", token: people[1].accessToken).content.decode(MomentPageBody.self)
            #expect(news.items.map(\.name) == ["Party", "Later", "Street fair"])
            _ = fair
            // Once they have ended, nothing is news.
            try await t.move(to: t.clock.now().addingTimeInterval(10_000), &people)
            let old = try await t.send(.GET, "/api/v1/moments/news", token: people[1].accessToken).content.decode(MomentPageBody.self)
            #expect(old.items.isEmpty)
        }
    }

    @Test("memory lane is in check-in order across pages; in common counts only moments both checked in to")
    func checkInOrderAndInCommon() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Guest Ben")]
            try await t.befriend(people[0], people[1])
            // Ben is invited to the brunch first and to the party later, but checks in at the party first.
            let brunch = try await t.createMoment(people[0], name: "Brunch", startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1]], to: brunch, by: people[0])
            t.clock.advance(by: 5)
            let party = try await t.createMoment(people[0], name: "Party", startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1]], to: party, by: people[0])
            t.clock.advance(by: 5)
            let picnic = try await t.createMoment(people[0], name: "Picnic", startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1]], to: picnic, by: people[0])
            #expect(try await t.join(picnic, people[1]).status == .ok)
            try await t.move(to: t.clock.now().addingTimeInterval(10), &people)
            #expect(try await t.checkIn(party, people[1], at: TestPlace.north(30)).status == .ok)
            try await t.move(to: t.clock.now().addingTimeInterval(10), &people)
            #expect(try await t.checkIn(brunch, people[1], at: TestPlace.north(30)).status == .ok)
            // Ana, the host of all three, checks in at the party only; the picnic Ben only joined.
            #expect(try await t.checkIn(party, people[0], at: TestPlace.north(5)).status == .ok)

            var names: [String] = []
            var cursor: String?
            repeat {
                let query = cursor.map { "?limit=1&cursor=\($0)" } ?? "?limit=1"
                let page = try await t.send(.GET, "/api/v1/me/check-ins\(query)", token: people[1].accessToken)
                #expect(page.status == .ok, "\(page.body.string)")
                let body = try page.content.decode(CheckInPageBody.self)
                names += body.items.map(\.moment.name)
                cursor = body.nextCursor
            } while cursor != nil && names.count < 5
            #expect(names == ["Brunch", "Party"])

            let common = try await t.send(.GET, "/api/v1/users/\(people[0].user.id)/moments-in-common", token: people[1].accessToken)
            #expect(try common.content.decode(MomentPageBody.self).items.map(\.name) == ["Party"])

            // Somebody else's check-in as a cursor is a bad cursor, not a way in.
            let theirs = try await t.send(.GET, "/api/v1/me/check-ins?limit=1", token: people[0].accessToken).content.decode(CheckInPageBody.self)
            #expect(theirs.items.map(\.moment.name) == ["Party"])
            let stray = PageCursor(id: UUID()).encoded
            #expect(try await t.send(.GET, "/api/v1/me/check-ins?cursor=\(stray)", token: people[1].accessToken).status == .badRequest)
        }
    }
}
