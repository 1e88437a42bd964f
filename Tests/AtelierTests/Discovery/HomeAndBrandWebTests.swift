import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: the home pages and brand pages")
struct HomeAndBrandWebTests {
    let catalogPages = CatalogWebTests()
    var forms: AccountsWebTests { catalogPages.forms }

    private func links(_ html: String, matching pattern: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap {
            Range($0.range(at: 1), in: html).map { String(html[$0]).replacingOccurrences(of: "&amp;", with: "&") }
        }
    }

    private func productIDs(_ html: String) -> [String] { links(html, matching: #"href="/products/([0-9a-f-]{36})""#) }

    @Test("signed out: shops and new pieces in the busiest city, then near the visitor's position; More pages on without repeats")
    func visitorHome() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            var made: [String] = []
            for index in 0..<26 {
                let store = index.isMultiple(of: 2) ? (f.storeAID, f.ownerA) : (f.storeBID, f.ownerB)
                made.append(try await t.activeProduct(in: store.0, owner: store.1, category: f.shirts, title: "Piece \(index)").id.lowercased())
            }

            let first = try await catalogPages.get(t, "/")
            #expect(first.status == .ok)
            let html = first.body.string
            #expect(html.contains("Shops in Gothenburg"))
            #expect(html.contains(f.storeA.name) && html.contains(f.storeB.name))
            #expect(html.contains("Open now") || html.contains("Closed now"))
            #expect(html.contains("href=\"/signup\""))
            #expect(html.contains("action=\"/search\""))
            #expect(html.contains("/static/js/home-location.js"))
            #expect(html.contains("data-position=\"unknown\""))
            let firstPage = productIDs(html)
            #expect(firstPage.count == VisitorHome.pageSize)
            let more = try #require(links(html, matching: #"data-infinite-more href="([^"]+)""#).first)
            #expect(more.hasPrefix("/?cursor="))
            let second = productIDs(try await catalogPages.get(t, more).body.string)
            #expect(second.count == 2)
            #expect(Set(firstPage + second) == Set(made))

            // With the browser's position (the page's script reloads with it), the page is about the visitor.
            let near = try await catalogPages.get(t, "/?lat=57.7049&lng=11.9651").body.string
            #expect(near.contains("Shops near you"))
            #expect(near.contains("data-position=\"known\""))
            let nearMore = try #require(links(near, matching: #"data-infinite-more href="([^"]+)""#).first)
            #expect(nearMore.contains("lat=57.705") && nearMore.contains("lng=11.965"))

            // Far from every shop, the visitor is told so and shown the city rather than nothing.
            let far = try await catalogPages.get(t, "/?lat=40.71&lng=-74.0").body.string
            #expect(far.contains("No shops within 25 km of you yet"))
            #expect(far.contains("Shops in Gothenburg"))
            #expect(productIDs(far).count == VisitorHome.pageSize)

            // A position that is no place on Earth is ignored, not an error page.
            let nonsense = try await catalogPages.get(t, "/?lat=999&lng=abc")
            #expect(nonsense.status == .ok)
            #expect(nonsense.body.string.contains("Shops in Gothenburg"))
        }
    }

    @Test("signed in: today's outfit status, planned outfit, coming moments and the following feed")
    func memberHome() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            _ = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Followed tee")
            _ = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "Unfollowed scarf")
            let shopper = try await t.signUp(name: "Home Shopper")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)

            var home = try await catalogPages.get(t, "/", cookie: cookie).body.string
            #expect(home.contains("id=\"greeting\"") && home.contains("Home Shopper"))
            #expect(home.contains("id=\"home-following-empty\""))
            #expect(home.contains("You have not posted today's outfit yet."))
            #expect(home.contains("No outfit planned for today."))
            #expect(home.contains("No moments coming up."))
            #expect(!home.contains("Shops in Gothenburg"))

            let store = try await forms.openForm(t, "/stores/\(f.storeA.slug)", cookie: cookie)
            _ = try await forms.post(t, "/stores/\(f.storeA.slug)/follow", form: ["csrfToken": store.csrf], cookie: cookie)
            home = try await catalogPages.get(t, "/", cookie: cookie).body.string
            #expect(home.contains("Followed tee"))
            #expect(!home.contains("Unfollowed scarf"))
            #expect(!home.contains("id=\"home-following-empty\""))
        }
    }

    @Test("a brand page lists the brand's pieces and the stores carrying them; following it puts them in the feed; proposed brands have no page")
    func brandPage() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let branded = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, brand: f.brand, title: "Branded coat")
            _ = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "Plain scarf")

            let product = try await catalogPages.get(t, "/products/\(branded.id.lowercased())").body.string
            #expect(product.contains("href=\"/brands/\(f.brand.slug)\""))

            let signedOut = try await catalogPages.get(t, "/brands/\(f.brand.slug)")
            #expect(signedOut.status == .ok)
            let page = signedOut.body.string
            #expect(page.contains(f.brand.name))
            #expect(page.contains("Branded coat"))
            #expect(!page.contains("Plain scarf"))
            #expect(page.contains("href=\"/stores/\(f.storeA.slug)\""))
            #expect(!page.contains("href=\"/stores/\(f.storeB.slug)\""))
            #expect(page.contains("og:url\" content=\"\(t.app.atelier.config.publicBaseURL)/brands/\(f.brand.slug)\""))
            #expect(page.contains("Sign in to follow"))

            let shopper = try await t.signUp(name: "Brand Fan")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)
            let form = try await forms.openForm(t, "/brands/\(f.brand.slug)", cookie: cookie)
            #expect(form.html.contains("action=\"/brands/\(f.brand.slug)/follow\""))
            let followed = try await forms.post(t, "/brands/\(f.brand.slug)/follow", form: ["csrfToken": form.csrf], cookie: cookie)
            #expect(followed.status == .seeOther)
            #expect(try await Brand.find(f.brand.id, on: t.app.db)?.followerCount == 1)
            #expect(try await catalogPages.get(t, "/brands/\(f.brand.slug)", cookie: cookie).body.string.contains("action=\"/brands/\(f.brand.slug)/unfollow\""))
            let feed = try await catalogPages.get(t, "/feed", cookie: cookie).body.string
            #expect(feed.contains("Branded coat"))
            #expect(!feed.contains("Plain scarf"))

            // Without the CSRF token nothing changes.
            let forged = try await forms.post(t, "/brands/\(f.brand.slug)/unfollow", form: [:], cookie: cookie)
            #expect(forged.status.code >= 400)
            #expect(try await Brand.find(f.brand.id, on: t.app.db)?.followerCount == 1)

            let adminModel = try #require(try await User.find(UUID(uuidString: f.admin.user.id), on: t.app.db))
            let proposed = try await BrandService(db: t.app.db, core: t.app.core, catalogChanges: t.app.atelier.catalogChanges, catalogIndexing: t.app.atelier.catalogIndexing, mediaLibrary: t.app.atelier.media)
                .create(name: "Proposed \(UUID().uuidString.prefix(4))", logoID: nil, status: .proposed, proposedBy: nil, by: adminModel)
            #expect(try await catalogPages.get(t, "/brands/\(proposed.slug)").status == .notFound)
            #expect(try await catalogPages.get(t, "/brands/no-such-brand").status == .notFound)
        }
    }
}
