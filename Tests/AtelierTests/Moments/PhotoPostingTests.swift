import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Moments: who may post photos, cell by cell, on a controllable clock")
struct PhotoPostingTests {
    /// Each cell of moments.md's table: (status, membership) → may post?
    @Test("upcoming/ongoing/ended × not joined/joined/checked in, and the creator always")
    func everyCell() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Invited Ben"),
                          try await t.signUp(name: "Joined Cara"), try await t.signUp(name: "Checked Dan")]
            for guest in people.dropFirst() { try await t.befriend(people[0], guest) }
            let start = t.clock.now().addingTimeInterval(3600)
            let moment = try await t.createMoment(people[0], startIn: 3600, endIn: 3 * 3600)
            #expect(try await t.invite(Array(people.dropFirst()), to: moment, by: people[0]).status == .ok)
            #expect(try await t.join(moment, people[2]).status == .ok)
            #expect(try await t.join(moment, people[3]).status == .ok)

            func mayPost(_ index: Int) async throws -> (Bool, String) {
                let response = try await t.postMomentPhoto(moment, people[index])
                return (response.status == .created, response.status == .created ? "" : try response.problem().detail ?? "")
            }

            // Upcoming: not joined no; joined yes (previews); creator yes.
            var (ok, why) = try await mayPost(1)
            #expect(!ok && why.contains("Join the moment first"), "\(why)")
            #expect(try await mayPost(2).0, "joined may post previews before the start")
            #expect(try await mayPost(0).0, "the creator may always post")

            // Ongoing: Dan checks in; not joined no; joined no (check in first); checked in yes.
            try await t.move(to: start.addingTimeInterval(60), &people)
            #expect(try await t.checkIn(moment, people[3], at: TestPlace.north(20)).status == .ok)
            (ok, why) = try await mayPost(1)
            #expect(!ok && why.contains("Join the moment first"), "\(why)")
            (ok, why) = try await mayPost(2)
            #expect(!ok && why.contains("Check in"), "\(why)")
            #expect(try await mayPost(3).0, "checked in may post while it is on")
            #expect(try await mayPost(0).0)

            // Ended: not joined no; joined no; checked in yes (after the fact); creator yes.
            try await t.move(to: start.addingTimeInterval(3 * 3600), &people)
            (ok, why) = try await mayPost(1)
            #expect(!ok, "\(why)")
            (ok, why) = try await mayPost(2)
            #expect(!ok && why.contains("checked in"), "\(why)")
            #expect(try await mayPost(3).0, "checked in may add after-the-fact photos")
            #expect(try await mayPost(0).0)

            // The moment's photo count is exactly the posts that were let through.
            let got = try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: people[0].accessToken)
            #expect(try got.content.decode(MomentBody.self).photoCount == 6)
            // A refused post leaves the upload unattached (it is collected later), not in the album.
            let photos = try await t.send(.GET, "/api/v1/moments/\(moment.id)/photos?limit=100", token: people[0].accessToken)
            #expect(try photos.content.decode(MomentPhotoPageBody.self).items.count == 6)
        }
    }

    @Test("the rule itself, for every state including ignored and the impossible ‘checked in before the start’")
    func ruleTable() {
        typealias S = MomentMember.State
        let cases: [(S?, Moment.Status, Bool)] = [
            (nil, .upcoming, false), (.invited, .upcoming, false), (.ignored, .upcoming, false), (.joined, .upcoming, true),
            (.checkedIn, .upcoming, true),
            (nil, .ongoing, false), (.invited, .ongoing, false), (.joined, .ongoing, false), (.checkedIn, .ongoing, true),
            (nil, .ended, false), (.invited, .ended, false), (.joined, .ended, false), (.checkedIn, .ended, true),
        ]
        for (state, status, allowed) in cases {
            #expect((PhotoPostingRule.refusal(isCreator: false, state: state, status: status) == nil) == allowed, "\(String(describing: state)) \(status)")
            #expect(PhotoPostingRule.refusal(isCreator: true, state: state, status: status) == nil)
        }
    }

    @Test("author or creator may delete a photo; others get 403; the first photo is the cover until one is set")
    func deleteAndCover() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Guest Ben"), try await t.signUp(name: "Guest Cara")]
            try await t.befriend(people[0], people[1])
            try await t.befriend(people[0], people[2])
            let moment = try await t.createMoment(people[0], startIn: -60, endIn: 3600)
            _ = try await t.invite([people[1], people[2]], to: moment, by: people[0])
            for guest in people.dropFirst() { #expect(try await t.checkIn(moment, guest, at: TestPlace.north(0)).status == .ok) }
            let first = try await t.momentPhoto(moment, people[1])
            t.clock.advance(by: 1)
            try await t.move(to: t.clock.now(), &people)
            let second = try await t.momentPhoto(moment, people[2])
            var got = try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: people[0].accessToken).content.decode(MomentBody.self)
            #expect(got.cover?.id == first.photo.id)
            #expect(try await t.send(.POST, "/api/v1/moments/\(moment.id)/photos/\(second.id)/cover", token: people[1].accessToken).status == .forbidden)
            #expect(try await t.send(.POST, "/api/v1/moments/\(moment.id)/photos/\(second.id)/cover", token: people[0].accessToken).status == .ok)
            got = try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: people[0].accessToken).content.decode(MomentBody.self)
            #expect(got.cover?.id == second.photo.id)

            #expect(try await t.send(.DELETE, "/api/v1/moments/\(moment.id)/photos/\(first.id)", token: people[2].accessToken).status == .forbidden)
            #expect(try await t.send(.DELETE, "/api/v1/moments/\(moment.id)/photos/\(first.id)", token: people[1].accessToken).status == .noContent)
            #expect(try await t.send(.DELETE, "/api/v1/moments/\(moment.id)/photos/\(second.id)", token: people[0].accessToken).status == .noContent)
            got = try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: people[0].accessToken).content.decode(MomentBody.self)
            #expect(got.photoCount == 0 && got.cover == nil)
        }
    }
}
