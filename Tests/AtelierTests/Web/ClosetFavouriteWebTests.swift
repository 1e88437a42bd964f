import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: a closet item's star")
struct ClosetFavouriteWebTests {
    @Test("the item page stars and unstars an item; the form says which, so the same post twice (an offline star sent again) stays starred; a bad value changes nothing")
    func star() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail()
            let owner = try await t.signUp(email: email)
            let item = try await t.closetItem(owner.accessToken, type: "shirt")
            let forms = AccountsWebTests()
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            let path = "/closet/items/\(item.id)"
            func starred() async throws -> Bool {
                let body = try await t.send(.GET, "/api/v1/me/closet/items/\(item.id)", token: owner.accessToken).body.string
                return body.contains(#""favourite":true"#)
            }

            let page = try await forms.openForm(t, path, cookie: cookie)
            #expect(page.html.contains(#"id="item-favourite-form""#) && page.html.contains(#"name="favourite" value="true""#))
            #expect(page.html.contains("data-offline-action"), "queued when offline")
            for _ in 0..<2 {
                let answer = try await forms.post(t, path + "/favourite", form: ["csrfToken": page.csrf, "favourite": "true"], cookie: page.cookie)
                #expect(answer.status == .seeOther)
                #expect(try await starred())
            }
            let again = try await forms.openForm(t, path, cookie: page.cookie)
            #expect(again.html.contains(#"name="favourite" value="false""#) && again.html.contains(#"aria-pressed="true""#))

            _ = try await forms.post(t, path + "/favourite", form: ["csrfToken": page.csrf, "favourite": "maybe"], cookie: page.cookie)
            #expect(try await starred(), "a bad value changes nothing")
            _ = try await forms.post(t, path + "/favourite", form: ["csrfToken": page.csrf, "favourite": "false"], cookie: page.cookie)
            #expect(try await !starred())

            let stranger = try await t.signUp(email: uniqueEmail())
            let strangerItem = try await t.closetItem(stranger.accessToken, type: "jeans")
            let refused = try await forms.post(t, "/closet/items/\(strangerItem.id)/favourite", form: ["csrfToken": page.csrf, "favourite": "true"], cookie: page.cookie)
            #expect(refused.status == .notFound, "another person's item")
        }
    }
}
