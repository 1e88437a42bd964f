import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Moments: a quick moment at a chosen place")
struct QuickMomentPlaceTests {
    private func savedPlace(_ t: TestApp, _ session: Session, name: String = "Piața Romană", radius: Int = 150) async throws -> String {
        let saved = try await t.send(
            .POST, "/api/v1/places", json: #"{"name":"\#(name)","lat":\#(TestPlace.lat),"lng":\#(TestPlace.lng),"radiusMeters":\#(radius)}"#,
            token: session.accessToken)
        #expect(saved.status == .created, "\(saved.body.string)")
        struct Created: Decodable { var id: String }
        return try saved.content.decode(Created.self).id
    }

    private func quick(_ t: TestApp, _ session: Session, at point: (lat: Double, lng: Double), _ extra: String = "") async throws -> TestingHTTPResponse {
        try await t.send(.POST, "/api/v1/moments/quick", json: #"{"lat":\#(point.lat),"lng":\#(point.lng)\#(extra)}"#, token: session.accessToken)
    }

    @Test("around the person, at a nearby place they picked, or at a spot they named; the creator is checked in each time")
    func choices() async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana Quick")
            let placeID = try await savedPlace(t, ana)

            let here = try await quick(t, ana, at: TestPlace.north(20))
            #expect(here.status == .created, "\(here.body.string)")
            let plain = try here.content.decode(MomentBody.self)
            #expect(plain.name == "Ana’s moment" && plain.place.radiusMeters == 100 && plain.myState == "checkedIn")

            let atPlace = try await quick(t, ana, at: TestPlace.north(40), #","placeId":"\#(placeID)""#)
            #expect(atPlace.status == .created, "\(atPlace.body.string)")
            let picked = try atPlace.content.decode(MomentBody.self)
            #expect(picked.name == "Ana at Piața Romană" && picked.place.id == placeID && picked.myState == "checkedIn")

            let named = try await quick(t, ana, at: TestPlace.north(0), #","placeName":"Grandma's garden","radiusMeters":300"#)
            #expect(named.status == .created, "\(named.body.string)")
            let spot = try named.content.decode(MomentBody.self)
            #expect(spot.name == "Ana at Grandma's garden" && spot.place.name == "Grandma's garden" && spot.place.radiusMeters == 300)
        }
    }

    @Test(
        "bad choices are 422 naming the field, and no moment is made",
        arguments: ["far-place", "unknown-place", "empty-name", "tiny-radius", "both", "radius-alone"])
    func refusals(kind: String) async throws {
        try await TestApp.with { t in
            let ana = try await t.signUp(name: "Ana Quick")
            let placeID = try await savedPlace(t, ana)
            let (point, extra, field): ((lat: Double, lng: Double), String, String) =
                switch kind {
                case "far-place": (TestPlace.north(2_000), #","placeId":"\#(placeID)""#, "placeId")
                case "unknown-place": (TestPlace.north(0), #","placeId":"\#(UUID().uuidString.lowercased())""#, "placeId")
                case "empty-name": (TestPlace.north(0), #","placeName":"   ""#, "placeName")
                case "tiny-radius": (TestPlace.north(0), #","placeName":"Here","radiusMeters":5"#, "radiusMeters")
                case "both": (TestPlace.north(0), #","placeId":"\#(placeID)","placeName":"Here""#, "placeName")
                default: (TestPlace.north(0), #","radiusMeters":200"#, "radiusMeters")
                }
            let before = try await Moment.query(on: t.app.db).count()
            let answer = try await quick(t, ana, at: point, extra)
            #expect(answer.status.code == 422 || answer.status.code == 400, "\(kind): \(answer.body.string)")
            if answer.status.code == 422 { #expect(try answer.problem().fields == [field], "\(kind)") }
            #expect(try await Moment.query(on: t.app.db).count() == before)
        }
    }

    @Test("web: the places page lists the saved place that takes in the position; Start here opens the moment there")
    func web() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("quick")
            let ana = try await t.signUp(email: email, name: "Ana Quick")
            let placeID = try await savedPlace(t, ana)
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            let point = TestPlace.north(30)
            let page = try await AccountsWebTests().openForm(t, "/moments/quick/places?lat=\(point.lat)&lng=\(point.lng)", cookie: cookie)
            #expect(page.html.contains("data-place=\"\(placeID)\""))
            let started = try await AccountsWebTests().post(
                t, "/moments/quick", form: ["lat": "\(point.lat)", "lng": "\(point.lng)", "placeId": placeID, "csrfToken": page.csrf], cookie: cookie)
            #expect(started.status == .seeOther)
            let moment = try #require(try await Moment.query(on: t.app.db).filter(\.$creatorID == UUID(uuidString: ana.user.id)!).first())
            #expect(moment.placeID.idString == placeID && started.headers.first(name: .location) == "/moments/\(moment.id!.idString)")
            let far = try await AccountsWebTests().openForm(t, "/moments/quick/places?lat=\(TestPlace.north(3_000).lat)&lng=\(TestPlace.lng)", cookie: cookie)
            #expect(!far.html.contains("data-place=\"\(placeID)\""))
        }
    }
}
