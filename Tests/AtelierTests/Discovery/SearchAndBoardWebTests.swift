import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: search page, boards, shopping list")
struct SearchAndBoardWebTests {
    let catalogPages = CatalogWebTests()
    var forms: AccountsWebTests { catalogPages.forms }

    @Test("the search page shows results with facet counts; a ticked facet narrows them; a signed-in shopper saves the search")
    func searchPage() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let word = "zq\(UUID().uuidString.prefix(6).lowercased())"
            _ = try await t.product(.init(title: "\(word) blue shirt", category: f.shirts, colors: ["blue"]), in: f.storeA, owner: f.ownerA)
            _ = try await t.product(.init(title: "\(word) red shirt", category: f.shirts, colors: ["red"]), in: f.storeB, owner: f.ownerB)
            _ = try await t.product(.init(title: "\(word) red scarf", category: f.tops, colors: ["red"]), in: f.storeB, owner: f.ownerB)

            let page = try await catalogPages.get(t, "/search?q=\(word)")
            #expect(page.status == .ok)
            let html = page.body.string
            #expect(html.contains("id=\"search-total\">3 pieces"))
            #expect(html.contains("value=\"red\"> red <span class=\"muted facet-count\">2</span>"))
            #expect(html.contains("value=\"blue\"> blue <span class=\"muted facet-count\">1</span>"))
            #expect(html.contains("Tops › Shirts <span class=\"muted facet-count\">2</span>"))

            let narrowed = try await catalogPages.get(t, "/search?q=\(word)&color=red&categoryId=\(f.shirts.id!.uuidString.lowercased())")
            #expect(narrowed.body.string.contains("id=\"search-total\">1 piece<"))
            #expect(narrowed.body.string.contains("\(word) red shirt"))
            #expect(!narrowed.body.string.contains("\(word) red scarf"))
            #expect(try await catalogPages.get(t, "/search?color=teal").status == .unprocessableEntity)

            let shopper = try await t.signUp(name: "Saver")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)
            let form = try await forms.openForm(t, "/search?q=\(word)&color=red", cookie: cookie)
            #expect(form.html.contains("id=\"save-search-form\""))
            #expect(form.html.contains("name=\"query\" id=\"save-search-query\" value=\"q=\(word)&amp;color=red\""))
            let saved = try await forms.post(t, "/search/save", form: ["csrfToken": form.csrf, "name": "Red things", "query": "q=\(word)&color=red"], cookie: cookie)
            #expect(saved.status == .seeOther)
            let searches = try await SavedSearch.query(on: t.app.db).filter(\.$userID == UUID(uuidString: shopper.user.id)!).all()
            #expect(searches.map(\.name) == ["Red things"])
            #expect(searches.first?.query.colors == ["red"])
            #expect(try await t.readFeed("/api/v1/feed/following", token: shopper.accessToken).count == 2)  // both red pieces
        }
    }

    @Test("a shopper pins a piece to a new board, shares it, and a stranger sees the page with its preview tags")
    func boardPages() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let product = try await t.product(.init(title: "Velvet blazer", category: f.tops), in: f.storeA, owner: f.ownerA)
            let productID = product.id!.uuidString.lowercased()
            let shopper = try await t.signUp(name: "Pinner")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)

            let productPage = try await forms.openForm(t, "/products/\(productID)", cookie: cookie)
            #expect(productPage.html.contains("id=\"board-form\""))
            let toNew = try await forms.post(t, "/products/\(productID)/board", form: ["csrfToken": productPage.csrf, "board": "new"], cookie: cookie)
            #expect(toNew.headers.first(name: .location) == "/lookbook?pin=\(productID)#new-board")
            let lookbook = try await forms.openForm(t, "/lookbook?pin=\(productID)", cookie: cookie)
            #expect(lookbook.html.contains("name=\"productID\" value=\"\(productID)\""))
            let made = try await forms.post(t, "/boards", form: ["csrfToken": lookbook.csrf, "name": "Autumn", "productID": productID], cookie: cookie)
            #expect(made.status == .seeOther)
            let board = try #require(try await Board.query(on: t.app.db).filter(\.$name == "Autumn").first())
            let boardPath = "/boards/\(board.id!.uuidString.lowercased())"

            // Private: the owner sees it, a stranger does not, and there are no preview tags.
            let own = try await forms.openForm(t, boardPath, cookie: cookie)
            #expect(own.html.contains("Velvet blazer"))
            #expect(!own.html.contains("og:title"))
            #expect(try await catalogPages.get(t, boardPath).status == .notFound)

            let shared = try await forms.post(t, "\(boardPath)/visibility", form: ["csrfToken": own.csrf, "isPublic": "true"], cookie: cookie)
            #expect(shared.status == .seeOther)
            let publicPage = try await catalogPages.get(t, boardPath)
            #expect(publicPage.status == .ok)
            #expect(publicPage.body.string.contains("<meta property=\"og:title\" content=\"Autumn\">"))
            #expect(publicPage.body.string.contains("1 piece collected by Pinner"))
            #expect(publicPage.body.string.contains("Velvet blazer"))
            #expect(!publicPage.body.string.contains("board-delete-form"))
        }
    }

    @Test("the shopping list page shows the walk through the stores from the given position")
    func shoppingList() async throws {
        try await TestApp.with { t in
            let f = try await t.catalogFixture()
            let a = try await t.product(.init(title: "Wool socks", category: f.tops), in: f.storeA, owner: f.ownerA)
            let b = try await t.product(.init(title: "Rain hat", category: f.tops), in: f.storeB, owner: f.ownerB)
            let shopper = try await t.signUp(name: "Walker")
            let cookie = try await catalogPages.webSignIn(t, email: shopper.user.email!)
            for product in [a, b] {
                let id = product.id!.uuidString.lowercased()
                let page = try await forms.openForm(t, "/products/\(id)", cookie: cookie)
                #expect(try await forms.post(t, "/products/\(id)/wishlist", form: ["csrfToken": page.csrf], cookie: cookie).status == .seeOther)
            }
            #expect(try await catalogPages.get(t, "/products/\(a.id!.uuidString.lowercased())", cookie: cookie).body.string.contains("On your shopping list"))
            let noPlace = try await catalogPages.get(t, "/wishlist", cookie: cookie)
            #expect(noPlace.body.string.contains("To plan the walk"))
            // From next to store B: B first, then A.
            let walk = try await catalogPages.get(t, "/wishlist?lat=57.7041&lng=11.9621", cookie: cookie).body.string
            #expect(walk.contains("2 stores"))
            let first = try #require(walk.range(of: f.storeB.name)), second = try #require(walk.range(of: f.storeA.name))
            #expect(first.lowerBound < second.lowerBound)
        }
    }
}
