import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: forms that send photos")
struct PhotoFormsTests {
    @Test("the closet's upload form takes a real photo (well over 64 KB) with its CSRF token; without the token it is refused")
    func closetTakesRealPhotos() async throws {
        try await TestApp.with { t in
            let email = uniqueEmail("closet")
            let person = try await t.signUp(email: email)
            let cookie = try await CatalogWebTests().webSignIn(t, email: email)
            let page = try await AccountsWebTests().openForm(t, "/closet", cookie: cookie)
            let photo = try TestImages.phoneJPEG(width: 1600, height: 1200, gps: false)
            #expect(photo.count > 64 * 1024, "the photo must be larger than a plain form may be")

            var unsigned = MultipartForm()
            unsigned.add("photos[]", filename: "coat.jpg", photo)
            #expect(try await unsigned.post(t, "/closet/photos", cookie: cookie).status == .forbidden)

            var form = MultipartForm()
            form.add("csrfToken", page.csrf)
            form.add("photos[]", filename: "coat.jpg", photo)
            let sent = try await form.post(t, "/closet/photos", cookie: cookie, overHTTP: true)
            // The HTTP client follows the redirect to the closet page.
            #expect([.seeOther, .ok].contains(sent.status), "\(sent.status) \(sent.body.string.prefix(300))")
            #expect(try await ClosetItem.query(on: t.app.db).filter(\.$ownerID == UUID(uuidString: person.user.id)!).count() == 1)
        }
    }
}
