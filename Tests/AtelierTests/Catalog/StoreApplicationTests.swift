import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Catalog: applying to open a store")
struct StoreApplicationTests {
    struct ApplicationBody: Decodable {
        var id: String
        var status: String
        var storeId: String?
        var declineReason: String?
    }

    static let json = #"{"name":"Linen Loft","street":"Strada Lipscani 12","postalCode":"030031","city":"Bucharest","location":{"lat":44.431,"lng":26.101},"about":"Linen, made here."}"#

    @Test("apply; admins hear of it; approval makes an active store the applicant owns, and tells them")
    func approve() async throws {
        try await TestApp.with { t in
            let admin = try await t.signUp()
            try await t.makeAdmin(admin)
            let applicant = try await t.signUp(name: "Ioana Shop")
            let applied = try await t.send(.POST, "/api/v1/me/store-applications", json: Self.json, token: applicant.accessToken)
            #expect(applied.status == .created, "\(applied.body.string)")
            let application = try applied.content.decode(ApplicationBody.self)
            #expect(application.status == "pending")
            #expect(try await t.notifications(admin).items.contains { $0.kind == "storeApplication" && $0.text.contains("Linen Loft") })
            // One waiting at a time; a shopper cannot decide.
            #expect(try await t.send(.POST, "/api/v1/me/store-applications", json: Self.json, token: applicant.accessToken).status == .conflict)
            #expect(try await t.send(.POST, "/api/v1/admin/store-applications/\(application.id)/approve", token: applicant.accessToken).status == .forbidden)

            let approved = try await t.send(.POST, "/api/v1/admin/store-applications/\(application.id)/approve", token: admin.accessToken)
            #expect(approved.status == .ok, "\(approved.body.string)")
            let decided = try approved.content.decode(ApplicationBody.self)
            let storeID = try #require(decided.storeId.flatMap(UUID.init(uuidString:)))
            let store = try #require(try await Store.find(storeID, on: t.app.db))
            #expect(store.name == "Linen Loft" && store.status == "active" && store.city == "Bucharest")
            let staff = try await StoreMember.query(on: t.app.db).filter(\.$store.$id == storeID).all()
            #expect(staff.map(\.$user.id) == [UUID(uuidString: applicant.user.id)!] && staff.first?.role == "owner")
            #expect(try await t.notifications(applicant).items.contains { $0.kind == "storeApplication" && $0.text.contains("approved") })
            // Decided once: again is a 409 and makes no second store.
            #expect(try await t.send(.POST, "/api/v1/admin/store-applications/\(application.id)/approve", token: admin.accessToken).status == .conflict)
            #expect(try await Store.query(on: t.app.db).filter(\.$name == "Linen Loft").count() == 1)
            let mine = try await t.send(.GET, "/api/v1/me/store-applications", token: applicant.accessToken)
            #expect(mine.body.string.contains("\"approved\""))
        }
    }

    @Test(
        "bad applications are 422 naming the field and nothing is written",
        arguments: [
            (#"{"name":"","street":"S","city":"C","location":{"lat":1,"lng":1}}"#, "name"),
            (#"{"name":"N","street":"  ","city":"C","location":{"lat":1,"lng":1}}"#, "street"),
            (#"{"name":"N","street":"S","city":"C","location":{"lat":1,"lng":1},"about":"\#(String(repeating: "a", count: 2001))"}"#, "about"),
        ])
    func refusals(json: String, field: String) async throws {
        try await TestApp.with { t in
            let applicant = try await t.signUp()
            let answer = try await t.send(.POST, "/api/v1/me/store-applications", json: json, token: applicant.accessToken)
            #expect(answer.status == .unprocessableEntity || answer.status == .badRequest, "\(answer.body.string)")
            if answer.status == .unprocessableEntity { #expect(try answer.problem().fields == [field]) }
            #expect(try await StoreApplication.query(on: t.app.db).count() == 0)
        }
    }

    @Test("declining needs a reason the applicant reads; then they may apply again; the web form and admin page do the same")
    func declineAndWeb() async throws {
        try await TestApp.with { t in
            let adminEmail = uniqueEmail("admin")
            let admin = try await t.signUp(email: adminEmail)
            try await t.makeAdmin(admin)
            let email = uniqueEmail("applicant")
            let applicant = try await t.signUp(email: email)
            let web = CatalogWebTests()
            let forms = AccountsWebTests()
            let cookie = try await web.webSignIn(t, email: email)
            let page = try await forms.openForm(t, "/open-a-store", cookie: cookie)
            let bad = try await forms.post(t, "/open-a-store", form: ["name": "Linen Loft", "street": "S 1", "city": "", "lat": "44.4", "lng": "26.1", "csrfToken": page.csrf], cookie: cookie)
            #expect(bad.status == .unprocessableEntity && bad.body.string.contains("app-city-error"))
            let sent = try await forms.post(t, "/open-a-store", form: ["name": "Linen Loft", "street": "S 1", "city": "Iasi", "lat": "47.16", "lng": "27.58", "csrfToken": page.csrf], cookie: cookie)
            #expect(sent.status == .seeOther)
            let application = try #require(try await StoreApplication.query(on: t.app.db).first())

            let noReason = try await t.send(.POST, "/api/v1/admin/store-applications/\(application.id!.idString)/decline", json: #"{"reason":"  "}"#, token: admin.accessToken)
            #expect(noReason.status == .unprocessableEntity)
            let adminCookie = try await web.webSignIn(t, email: adminEmail)
            let adminPage = try await forms.openForm(t, "/admin/store-applications", cookie: adminCookie)
            #expect(adminPage.html.contains("data-application=\"\(application.id!.idString)\""))
            let declined = try await forms.post(
                t, "/admin/store-applications/\(application.id!.idString)/decline", form: ["reason": "We need a shop window photo.", "csrfToken": adminPage.csrf],
                cookie: adminCookie)
            #expect(declined.status == .seeOther)
            let mine = try await web.get(t, "/open-a-store", cookie: cookie).body.string
            #expect(mine.contains("data-status=\"declined\"") && mine.contains("We need a shop window photo."))
            #expect(try await t.send(.POST, "/api/v1/me/store-applications", json: Self.json, token: applicant.accessToken).status == .created)
        }
    }
}
