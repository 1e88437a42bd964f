import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: catalog, portal and admin pages")
struct CatalogWebTests {
    let forms = AccountsWebTests()

    /// Signs in through the web form and returns the session cookie.
    func webSignIn(_ t: TestApp, email: String) async throws -> String {
        let page = try await forms.openForm(t, "/signin")
        let response = try await forms.post(t, "/signin", form: ["email": email, "password": TestApp.password, "csrfToken": page.csrf], cookie: page.cookie)
        #expect(response.status == .seeOther)
        return response.headers.setCookie?["atelier_session"].map { "atelier_session=\($0.string)" } ?? page.cookie
    }

    func get(_ t: TestApp, _ path: String, cookie: String? = nil) async throws -> TestingHTTPResponse {
        var headers = [("Accept", "text/html")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return try await t.send(.GET, path, headers: headers)
    }

    @Test("public store and product pages show active products only; portal and admin pages render for those allowed")
    func pages() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let active = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(title: "Visible coat", category: f.shirts, photos: [photo], status: "active")).content.decode(ProductBody.self)
            let hiddenPhoto = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let hidden = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(title: "Hidden scarf", category: f.shirts, photos: [hiddenPhoto])).content.decode(ProductBody.self)

            let store = try await get(t, "/stores/\(f.storeA.slug)")
            #expect(store.status == .ok)
            #expect(store.body.string.contains("Visible coat"))
            #expect(!store.body.string.contains("Hidden scarf"))
            #expect(store.body.string.contains("srcset="))
            let product = try await get(t, "/products/\(active.id.lowercased())")
            #expect(product.status == .ok)
            #expect(product.body.string.contains("Visible coat"))
            #expect(try await get(t, "/products/\(hidden.id.lowercased())").status == .notFound)

            // The owner of A sees every portal page; the owner of B gets 404s for A's.
            let ownerA = try await webSignIn(t, email: f.ownerA.user.email!)
            for path in ["products", "products?tab=inactive", "products/new", "products/\(hidden.id)/edit", "profile", "staff", "stats"] {
                let page = try await get(t, "/portal/stores/\(f.storeAID)/\(path)", cookie: ownerA)
                #expect(page.status == .ok, "\(path): \(page.body.string.prefix(300))")
            }
            #expect(try await get(t, "/portal/stores/\(f.storeAID)/products?tab=inactive", cookie: ownerA).body.string.contains("Hidden scarf"))
            let ownerB = try await webSignIn(t, email: f.ownerB.user.email!)
            #expect(try await get(t, "/portal/stores/\(f.storeAID)/products?tab=inactive", cookie: ownerB).status == .notFound)
            #expect(try await get(t, "/portal/stores/\(f.storeAID)/products/\(hidden.id)/edit", cookie: ownerB).status == .notFound)

            // Admin pages: 404 for others, rendered for admins.
            #expect(try await get(t, "/admin/brands", cookie: ownerA).status == .notFound)
            let admin = try await webSignIn(t, email: f.admin.user.email!)
            for path in ["", "/brands", "/categories", "/stores", "/users", "/users?q=owner"] {
                let page = try await get(t, "/admin\(path)", cookie: admin)
                #expect(page.status == .ok, "\(path): \(page.body.string.prefix(300))")
            }
        }
    }

    @Test("the stats page counts product views and share visits per day")
    func statsCountViews() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let product = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(category: f.shirts, photos: [photo], status: "active")).content.decode(ProductBody.self)
            for _ in 0..<3 { _ = try await t.send(.GET, "/api/v1/products/\(product.id)") }
            _ = try await get(t, "/products/\(product.id.lowercased())?via=share")
            let stats = try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/stats?days=7", token: f.ownerA.accessToken)
            #expect(stats.status == .ok, "\(stats.body.string)")
            struct Stats: Decodable {
                struct Day: Decodable { var day: String; var views: Int; var shareVisits: Int }
                var days: [Day]
            }
            let days = try stats.content.decode(Stats.self).days
            #expect(days.count == 7)
            #expect(days.last?.views == 3)
            #expect(days.last?.shareVisits == 1)
            #expect(try await t.send(.GET, "/api/v1/stores/\(f.storeAID)/stats?days=0", token: f.ownerA.accessToken).status == .unprocessableEntity)
        }
    }

    @Test("the owner edits the store profile; a shopper reports a product gone; a store proposes a brand")
    func forms() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let photo = try await t.uploadPhoto(token: f.ownerA.accessToken)
            let product = try await t.createProduct(
                in: f.storeAID, token: f.ownerA.accessToken,
                json: TestApp.productJSON(category: f.shirts, photos: [photo], status: "active")).content.decode(ProductBody.self)
            let owner = try await webSignIn(t, email: f.ownerA.user.email!)
            let profile = try await forms.openForm(t, "/portal/stores/\(f.storeAID)/profile", cookie: owner)
            #expect(profile.html.contains(#"<option value="\#(f.storeA.timeZone)" selected>"#), "the store's time zone is chosen")
            var fields = ["name": f.storeA.name, "street": "Vallgatan 3", "city": "Gothenburg", "lat": "57.705", "lng": "11.966",
                          "about": "Second-hand since 1998.", "timeZone": "Europe/Stockholm", "csrfToken": profile.csrf]
            fields["opens[]"] = "10:00"
            fields["closes[]"] = "18:00"
            let saved = try await forms.post(t, "/portal/stores/\(f.storeAID)/profile", form: fields, cookie: owner)
            #expect(saved.status == .seeOther, "\(saved.body.string.prefix(500))")
            let store = try #require(try await Store.find(f.storeA.id, on: t.app.db))
            #expect(store.about == "Second-hand since 1998.")
            #expect(store.street == "Vallgatan 3")
            #expect(store.openingHours == [OpeningHours(weekday: 1, opens: "10:00", closes: "18:00")])
            #expect(store.timeZone == "Europe/Stockholm")
            fields["timeZone"] = "Mars/Olympus_Mons"
            let badZone = try await forms.post(t, "/portal/stores/\(f.storeAID)/profile", form: fields, cookie: owner)
            #expect(badZone.status == .unprocessableEntity)
            #expect(badZone.body.string.contains("must be an IANA time zone"))
            #expect(try await Store.find(f.storeA.id, on: t.app.db)?.timeZone == "Europe/Stockholm", "a refused form changes nothing")
            fields["timeZone"] = "Europe/Stockholm"
            fields["lat"] = "north"
            let refused = try await forms.post(t, "/portal/stores/\(f.storeAID)/profile", form: fields, cookie: owner)
            #expect(refused.status == .unprocessableEntity)
            #expect(refused.body.string.contains("must be a number"))

            let proposal = try await forms.post(
                t, "/portal/stores/\(f.storeAID)/brand-proposals", form: ["name": "Kvarnby Knits", "csrfToken": profile.csrf], cookie: owner)
            #expect(proposal.status == .seeOther)
            let brand = try #require(try await Brand.query(on: t.app.db).filter(\.$slug == "kvarnby-knits").first())
            #expect(brand.status == "proposed")
            #expect(brand.proposedByStoreID == f.storeA.id)

            let shopper = try await t.signUp(name: "Shopper")
            let cookie = try await webSignIn(t, email: shopper.user.email!)
            let page = try await forms.openForm(t, "/products/\(product.id.lowercased())", cookie: cookie)
            for _ in 0..<2 {
                let sent = try await forms.post(
                    t, "/products/\(product.id.lowercased())/unavailable", form: ["note": "Sold out on Saturday", "csrfToken": page.csrf], cookie: cookie)
                #expect(sent.status == .seeOther)
            }
            let reports = try await UnavailableReport.query(on: t.app.db).filter(\.$storeID == f.storeA.id!).all()
            #expect(reports.map(\.note) == ["Sold out on Saturday"])
            let stats = try await get(t, "/portal/stores/\(f.storeAID)/stats", cookie: owner)
            #expect(stats.body.string.contains("Sold out on Saturday"))
        }
    }

    @Test("the portal's import page checks a CSV with a bad row, then imports the fixed one with its photos")
    func importPage() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let owner = try await webSignIn(t, email: f.ownerA.user.email!)
            let page = try await forms.openForm(t, "/portal/stores/\(f.storeAID)/import", cookie: owner)
            let zip = try Data(contentsOf: try ProductImportTests.photosZip())
            func post(csv: Data, mode: String) async throws -> TestingHTTPResponse {
                var form = MultipartForm()
                form.add("csrfToken", page.csrf)
                form.add("mode", mode)
                form.add("csv", filename: "products.csv", csv)
                form.add("photos", filename: "photos.zip", zip)
                return try await form.post(t, "/portal/stores/\(f.storeAID)/import", cookie: owner)
            }
            let checked = try await post(csv: ProductImportTests.csv(f, jeansBrand: "Acme"), mode: "check")
            #expect(checked.status == .unprocessableEntity)
            #expect(checked.body.string.contains("no brand named"))
            #expect(try await Product.query(on: t.app.db).count() == 0)
            let imported = try await post(csv: ProductImportTests.csv(f, jeansBrand: ""), mode: "import")
            #expect(imported.status == .ok, "\(imported.body.string.prefix(800))")
            #expect(imported.body.string.contains("Imported 2 products"))
            #expect(try await Product.query(on: t.app.db).filter(\.$store.$id == f.storeA.id!).count() == 2)
        }
    }
}
