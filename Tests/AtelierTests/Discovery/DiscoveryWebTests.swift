import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: feeds, lookbook, like and follow buttons")
struct DiscoveryWebTests {
    let catalogPages = CatalogWebTests()
    var forms: AccountsWebTests { catalogPages.forms }

    @Test("a shopper follows a store and likes a piece with the page buttons; the feed and the lookbook show it")
    func followLikeAndFeed() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.activeProduct(in: f.storeAID, owner: f.ownerA, category: f.shirts, title: "Striped tee")
            let elsewhere = try await t.activeProduct(in: f.storeBID, owner: f.ownerB, category: f.shirts, title: "Plain scarf")
            let shopper = try await t.signUp(name: "Page Shopper")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)

            // Signed out: the feed asks to sign in.
            let signedOut = try await catalogPages.get(t, "/feed")
            #expect(signedOut.status == .seeOther)

            var feed = try await catalogPages.get(t, "/feed", cookie: cookie)
            #expect(feed.status == .ok)
            #expect(!feed.body.string.contains("Striped tee"))
            let store = try await forms.openForm(t, "/stores/\(f.storeA.slug)", cookie: cookie)
            #expect(store.html.contains("action=\"/stores/\(f.storeA.slug)/follow\""))
            let followed = try await forms.post(t, "/stores/\(f.storeA.slug)/follow", form: ["csrfToken": store.csrf], cookie: cookie)
            #expect(followed.status == .seeOther)
            #expect(try await Store.find(f.storeA.id, on: t.app.db)?.followerCount == 1)
            #expect(try await catalogPages.get(t, "/stores/\(f.storeA.slug)", cookie: cookie).body.string.contains("action=\"/stores/\(f.storeA.slug)/unfollow\""))

            feed = try await catalogPages.get(t, "/feed", cookie: cookie)
            #expect(feed.body.string.contains("Striped tee"))
            #expect(!feed.body.string.contains("Plain scarf"))
            let discover = try await catalogPages.get(t, "/feed?tab=discover", cookie: cookie)
            #expect(discover.body.string.contains("Plain scarf"))
            #expect(!discover.body.string.contains("Striped tee"))

            let page = try await forms.openForm(t, "/products/\(product.id.lowercased())", cookie: cookie)
            let liked = try await forms.post(t, "/products/\(product.id.lowercased())/like", form: ["csrfToken": page.csrf], cookie: cookie)
            #expect(liked.status == .seeOther)
            #expect(try await Product.find(UUID(uuidString: product.id), on: t.app.db)?.likeCount == 1)
            #expect(try await catalogPages.get(t, "/products/\(product.id.lowercased())", cookie: cookie).body.string.contains("Liked ♥"))
            let lookbook = try await catalogPages.get(t, "/lookbook", cookie: cookie)
            #expect(lookbook.body.string.contains("Striped tee"))
            #expect(!lookbook.body.string.contains(elsewhere.title))

            // Without the CSRF token nothing changes.
            let forged = try await forms.post(t, "/products/\(product.id.lowercased())/unlike", form: [:], cookie: cookie)
            #expect(forged.status.code >= 400)
            #expect(try await Product.find(UUID(uuidString: product.id), on: t.app.db)?.likeCount == 1)
        }
    }
}
