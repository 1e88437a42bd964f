import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Moments: who may see a moment and its album")
struct MomentAccessTests {
    @Test("a private moment, its photos, original URLs and album zip are 404 to a stranger and to a blocked would-be invitee")
    func privateMoment() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana")
            let ben = try await t.signUp(name: "Guest Ben")
            let stranger = try await t.signUp(name: "Stranger Sam")
            let blocked = try await t.signUp(name: "Blocked Bob")
            try await t.befriend(ana, ben)
            try await t.befriend(ana, blocked)
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(blocked.user.id)", token: ana.accessToken).status.code < 300)
            let moment = try await t.createMoment(ana, startIn: -60, endIn: 3600)
            // A blocked person cannot be invited (and nobody is, when one of the names is refused).
            let refused = try await t.invite([ben, blocked], to: moment, by: ana)
            #expect(refused.status == .unprocessableEntity)
            #expect(try refused.problem().fields == ["userIds"])
            #expect(try await t.invite([ben], to: moment, by: ana).status == .ok)
            #expect(try await t.checkIn(moment, ben, at: TestPlace.north(10)).status == .ok)
            let photo = try await t.momentPhoto(moment, ben)

            // Members see everything.
            for path in ["", "/photos", "/photos/\(photo.id)", "/photos/\(photo.id)/original", "/album.zip", "/members", "/comments"] {
                let response = try await t.send(.GET, "/api/v1/moments/\(moment.id)\(path)", token: ana.accessToken)
                #expect(response.status == .ok, "\(path): \(response.status)")
            }
            #expect(try await t.send(.GET, "/api/v1/media/\(photo.photo.id)", token: ana.accessToken).status == .ok)
            // The stranger and the blocked person get 404 for every read and every action.
            for outsider in [stranger, blocked] {
                for path in ["", "/photos", "/photos/\(photo.id)", "/photos/\(photo.id)/original", "/album.zip", "/members", "/comments"] {
                    let response = try await t.send(.GET, "/api/v1/moments/\(moment.id)\(path)", token: outsider.accessToken)
                    #expect(response.status == .notFound, "\(outsider.user.displayName) \(path): \(response.status)")
                }
                #expect(try await t.send(.GET, "/api/v1/media/\(photo.photo.id)", token: outsider.accessToken).status == .notFound)
                #expect(try await t.join(moment, outsider).status == .notFound)
                #expect(try await t.checkIn(moment, outsider, at: TestPlace.north(0)).status == .notFound)
                #expect(try await t.postMomentPhoto(moment, outsider).status == .notFound)
                #expect(try await t.send(.PUT, "/api/v1/moments/\(moment.id)/photos/\(photo.id)/fave", token: outsider.accessToken).status == .notFound)
                let search = try await t.send(.GET, "/api/v1/moments/search?q=birthday", token: outsider.accessToken)
                #expect(try search.content.decode(MomentPageBody.self).items.isEmpty)
            }
            // Blocking after the invitation shuts the invitee out as well, either way round.
            #expect(try await t.send(.PUT, "/api/v1/me/blocks/\(ana.user.id)", token: ben.accessToken).status.code < 300)
            #expect(try await t.send(.GET, "/api/v1/moments/\(moment.id)/photos", token: ben.accessToken).status == .notFound)
        }
    }

    @Test("a public moment is visible to any signed-in person, who may join it; edits are the creator's")
    func publicMoment() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana")
            let sam = try await t.signUp(name: "Passer-by Sam")
            let moment = try await t.createMoment(ana, name: "Flea market", visibility: "public", startIn: 3600, endIn: 7200)
            let seen = try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: sam.accessToken)
            #expect(seen.status == .ok)
            #expect(try seen.content.decode(MomentBody.self).myState == nil)
            #expect(try await t.send(.GET, "/api/v1/moments/\(moment.id)").status == .unauthorized)
            let joined = try await t.join(moment, sam)
            #expect(joined.status == .ok)
            #expect(try joined.content.decode(MemberBody.self).state == "joined")
            #expect(try await t.send(.PATCH, "/api/v1/moments/\(moment.id)", json: #"{"name":"Mine now"}"#, token: sam.accessToken).status == .forbidden)
            #expect(try await t.send(.DELETE, "/api/v1/moments/\(moment.id)", token: sam.accessToken).status == .forbidden)
            let renamed = try await t.send(.PATCH, "/api/v1/moments/\(moment.id)", json: #"{"name":"Big flea market"}"#, token: ana.accessToken)
            #expect(try renamed.content.decode(MomentBody.self).name == "Big flea market")
            let found = try await t.send(.GET, "/api/v1/moments/search?q=FLEA", token: sam.accessToken)
            #expect(try found.content.decode(MomentPageBody.self).items.map(\.id) == [moment.id])
            #expect(try await t.send(.DELETE, "/api/v1/moments/\(moment.id)", token: ana.accessToken).status == .noContent)
            #expect(try await t.send(.GET, "/api/v1/moments/\(moment.id)", token: sam.accessToken).status == .notFound)
        }
    }

    @Test("a quick moment takes the defaults: the first name, now to two hours on, private, 100 m around the position")
    func quickMoment() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana Popescu")
            let response = try await t.send(.POST, "/api/v1/moments/quick", json: #"{"lat":44.4467,"lng":26.0975,"accuracyMeters":12}"#, token: ana.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            let moment = try response.content.decode(MomentBody.self)
            #expect(moment.name == "Ana’s moment" && moment.visibility == "private" && moment.status == "ongoing")
            #expect(moment.place.radiusMeters == 100 && moment.place.lat == 44.4467 && moment.canPost && moment.canEdit)
            #expect(moment.myState == "checkedIn", "whoever starts a moment where they stand is there")
            let raw = try JSONSerialization.jsonObject(with: Data(response.body.string.utf8)) as! [String: Any]
            let formatter = ISO8601DateFormatter()
            let startsAt = formatter.date(from: raw["startsAt"] as! String)!, endsAt = formatter.date(from: raw["endsAt"] as! String)!
            #expect(abs(startsAt.timeIntervalSince(t.clock.now())) < 1 && endsAt.timeIntervalSince(startsAt) == 7200)
            let nearby = try await t.send(.GET, "/api/v1/places/nearby?lat=44.4470&lng=26.0975&radius=500", token: ana.accessToken)
            #expect(nearby.status == .ok)
            #expect(nearby.body.string.contains(moment.place.id))
            // Where someone stands is theirs: another person searching there does not find the spot,
            // nor can they hold a moment at it.
            let sam = try await t.signUp(name: "Sam Stranger")
            let samNearby = try await t.send(.GET, "/api/v1/places/nearby?lat=44.4470&lng=26.0975&radius=500", token: sam.accessToken)
            #expect(samNearby.status == .ok && !samNearby.body.string.contains(moment.place.id))
            let borrowed = try await t.send(.POST, "/api/v1/moments", json: #"{"name":"Here","startsAt":"2027-01-16T10:00:00Z","endsAt":"2027-01-16T11:00:00Z","placeId":"\#(moment.place.id)"}"#, token: sam.accessToken)
            #expect(borrowed.status == .unprocessableEntity)
            // A place saved on purpose is for everyone.
            let saved = try await t.send(.POST, "/api/v1/places", json: #"{"name":"Piața Romană","lat":44.4467,"lng":26.0975,"radiusMeters":150}"#, token: ana.accessToken)
            let savedID = try saved.content.decode(PlaceBody.self).id
            #expect(try await t.send(.GET, "/api/v1/places/nearby?lat=44.4470&lng=26.0975&radius=500", token: sam.accessToken).body.string.contains(savedID))
        }
    }

    @Test("times with milliseconds, as browsers' toISOString() writes them, are read like whole seconds")
    func fractionalSeconds() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Host Ana")
            let json = #"{"name":"Brunch","startsAt":"2027-01-16T10:00:00.250Z","endsAt":"2027-01-16T12:30:00.000Z","place":{"name":"Café","lat":44.43,"lng":26.1,"radiusMeters":50}}"#
            let response = try await t.send(.POST, "/api/v1/moments", json: json, token: ana.accessToken)
            #expect(response.status == .created, "\(response.body.string)")
            #expect(response.body.string.contains(#""endsAt":"2027-01-16T12:30:00Z""#))
        }
    }
}
