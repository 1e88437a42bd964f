import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Moments: check-in on site")
struct CheckInTests {
    @Test("50 m from the centre of a 100 m place while ongoing succeeds; 150 m is refused with the distance; before and after are refused")
    func distanceAndTime() async throws {
        try await TestApp.with { t in
            var people = [try await t.signUp(name: "Host Ana"), try await t.signUp(name: "Guest Ben")]
            try await t.befriend(people[0], people[1])
            let start = t.clock.now().addingTimeInterval(3600)
            let moment = try await t.createMoment(people[0], startIn: 3600, endIn: 3 * 3600, radius: 100)
            _ = try await t.invite([people[1]], to: moment, by: people[0])

            // Before the start: 409, saying when it opens.
            var response = try await t.checkIn(moment, people[1], at: TestPlace.north(50))
            #expect(response.status == .conflict)
            #expect(try response.problem().detail?.contains("opens when the moment starts") == true)

            try await t.move(to: start.addingTimeInterval(600), &people)
            // 150 m away (accuracy 5 m): refused, the problem says how far.
            response = try await t.checkIn(moment, people[1], at: TestPlace.north(150), accuracy: 5)
            #expect(response.status == .unprocessableEntity)
            let problem = try response.problem()
            #expect(problem.type.hasSuffix("too-far-to-check-in"))
            #expect(problem.detail?.contains("150 m") == true, "\(problem.detail ?? "")")
            #expect(problem.errors?.first?.message.contains("150 m") == true)
            var members = try await t.send(.GET, "/api/v1/moments/\(moment.id)/members", token: people[0].accessToken)
            #expect(members.body.string.contains("\"checkedIn\"") == false)

            // 50 m: checked in.
            response = try await t.checkIn(moment, people[1], at: TestPlace.north(50), accuracy: 5)
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(try response.content.decode(MemberBody.self).state == "checkedIn")

            // The reported accuracy counts in the person's favour, up to a limit.
            let third = try await t.signUp(name: "Public Cara")
            let open = try await t.createMoment(people[0], name: "Open market", visibility: "public", startIn: -60, endIn: 3600)
            #expect(try await t.checkIn(open, third, at: TestPlace.north(130), accuracy: 40).status == .ok)
            response = try await t.checkIn(open, people[1], at: TestPlace.north(5000), accuracy: 5000)
            #expect(response.status == .unprocessableEntity)
            #expect(try response.problem().fields == ["accuracyMeters"])

            // After the end: 409.
            try await t.move(to: start.addingTimeInterval(3 * 3600 + 1), &people)
            response = try await t.checkIn(moment, people[0], at: TestPlace.north(0))
            #expect(response.status == .conflict)
            #expect(try response.problem().detail?.contains("ended") == true)
            members = try await t.send(.GET, "/api/v1/moments/\(moment.id)/members", token: people[0].accessToken)
            #expect(members.status == .ok)
        }
    }

    @Test("bad positions are 422 and change nothing")
    func badInput() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana")
            let moment = try await t.createMoment(ana, startIn: -60, endIn: 3600)
            let farNorth = try await t.checkIn(moment, ana, at: (91, 0))
            #expect(farNorth.status == .unprocessableEntity)
            #expect(try farNorth.problem().fields == ["lat"])
            let response = try await t.send(.POST, "/api/v1/moments/\(moment.id)/check-in", json: #"{"lat":44.4,"lng":26.1,"accuracyMeters":-1}"#, token: ana.accessToken)
            #expect(response.status == .unprocessableEntity)
            #expect(try response.problem().fields == ["accuracyMeters"])
            let quick = try await t.send(.POST, "/api/v1/moments/quick", json: #"{"lat":120,"lng":26.1}"#, token: ana.accessToken)
            #expect(quick.status == .unprocessableEntity)
            #expect(try quick.problem().fields == ["lat"])
            let bad = try await t.send(.POST, "/api/v1/moments", json: #"{"name":"x","startsAt":"2027-01-15T10:00:00Z","endsAt":"2027-01-15T09:00:00Z","placeId":"\#(UUID())"}"#, token: ana.accessToken)
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().fields.contains("endsAt"))
            let mine = try await t.send(.GET, "/api/v1/me/moments", token: ana.accessToken).content.decode(MomentPageBody.self)
            #expect(mine.items.count == 1)
        }
    }
}
