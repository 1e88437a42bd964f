import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Profile and settings")
struct ProfileTests {
    @Test("PATCH /me changes only the fields sent; null clears an optional field")
    func patchSemantics() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let set = try await t.send(
                .PATCH, "/api/v1/me",
                json: #"{"about":"Vintage denim","timeZone":"Pacific/Kiritimati","homeLocation":{"lat":57.7,"lng":11.97},"radiusKm":5,"birthDate":"1990-04-01"}"#,
                token: s.accessToken)
            #expect(set.status == .ok, "\(set.body.string)")
            let cleared = try await t.send(.PATCH, "/api/v1/me", json: #"{"about":null}"#, token: s.accessToken)
            #expect(cleared.status == .ok)
            let user = try #require(try await User.find(UUID(uuidString: s.user.id), on: t.app.db))
            #expect(user.about == nil)
            #expect(user.timeZone == "Pacific/Kiritimati" && user.radiusKm == 5 && user.homeLat == 57.7)
            #expect(user.birthDate == "1990-04-01")
        }
    }

    @Test(
        "invalid profile fields are 422 naming the field, and nothing changes",
        arguments: [
            (#"{"about":"\#(String(repeating: "a", count: 141))","displayName":"Changed"}"#, "about"),
            (#"{"timeZone":"Europe/Atlantis","displayName":"Changed"}"#, "timeZone"),
            (#"{"radiusKm":7,"displayName":"Changed"}"#, "radiusKm"),
            (#"{"genderPreference":"kids","displayName":"Changed"}"#, "genderPreference"),
            (#"{"birthDate":"2999-01-01","displayName":"Changed"}"#, "birthDate"),
            (#"{"birthDate":"01/02/1990","displayName":"Changed"}"#, "birthDate"),
            (#"{"homeLocation":{"lat":91,"lng":0},"displayName":"Changed"}"#, "homeLocation"),
            (#"{"displayName":null}"#, "displayName"),
            (#"{"radiusKm":"ten"}"#, "radiusKm"),
        ])
    func invalidFields(json: String, field: String) async throws {
        try await TestApp.with { t in
            let s = try await t.signUp(name: "Original")
            let response = try await t.send(.PATCH, "/api/v1/me", json: json, token: s.accessToken)
            #expect(response.status == .unprocessableEntity, "\(response.body.string)")
            #expect(try response.problem().fields.contains(field))
            let user = try #require(try await User.find(UUID(uuidString: s.user.id), on: t.app.db))
            #expect(user.displayName == "Original")
        }
    }

    @Test("UTC, the default zone, is a valid choice and is offered on the settings page")
    func utcIsValid() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let response = try await t.send(.PATCH, "/api/v1/me", json: #"{"timeZone":"UTC"}"#, token: s.accessToken)
            #expect(response.status == .ok)
            #expect(AccountRules.timeZoneIdentifiers.contains("UTC"))
            #expect(AccountRules.timeZoneIdentifiers.contains("Europe/Stockholm"))
        }
    }

    @Test("a taken username is 409")
    func usernameTaken() async throws {
        try await TestApp.with { t in
            let a = try await t.signUp()
            let b = try await t.signUp()
            let response = try await t.send(.PATCH, "/api/v1/me", json: #"{"username":"\#(a.user.username)"}"#, token: b.accessToken)
            #expect(response.status == .conflict)
            #expect(try response.problem().fields == ["username"])
        }
    }

    @Test("devices: register, move between accounts, list with cursor paging, unregister only one's own")
    func devices() async throws {
        try await TestApp.with { t in
            let a = try await t.signUp()
            let b = try await t.signUp()
            for index in 0..<5 {
                t.clock.advance(by: 1)
                let put = try await t.send(.PUT, "/api/v1/me/devices/fcm-token-of-phone-a-\(index)", json: #"{"platform":"fcm","appVersion":"1.0"}"#, token: a.accessToken)
                #expect(put.status == .ok)
            }
            // The phone changes hands: the token moves to B.
            #expect(try await t.send(.PUT, "/api/v1/me/devices/fcm-token-of-phone-a-0", json: #"{"platform":"fcm"}"#, token: b.accessToken).status == .ok)
            #expect(try await t.send(.DELETE, "/api/v1/me/devices/fcm-token-of-phone-a-1", token: b.accessToken).status == .notFound)
            #expect(try await t.send(.PUT, "/api/v1/me/devices/x", json: #"{"platform":"pager"}"#, token: b.accessToken).status == .unprocessableEntity)

            var seen: [String] = []
            var cursor: String?
            repeat {
                let query = cursor.map { "&cursor=\($0)" } ?? ""
                let page = try await t.send(.GET, "/api/v1/me/devices?limit=2\(query)", token: a.accessToken)
                #expect(page.status == .ok)
                let body = try page.content.decode(DevicePageBody.self)
                seen += body.items.map(\.token)
                cursor = body.nextCursor
            } while cursor != nil
            #expect(seen == (1...4).reversed().map { "fcm-token-of-phone-a-\($0)" })
            #expect(try await t.send(.GET, "/api/v1/me/devices?limit=500", token: a.accessToken).status == .badRequest)
        }
    }

    struct DevicePageBody: Decodable {
        struct Item: Decodable { var token: String }
        var items: [Item]
        var nextCursor: String?
    }
}
