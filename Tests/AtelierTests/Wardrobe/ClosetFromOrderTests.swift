import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: a bought piece into the closet")
struct ClosetFromOrderTests {
    struct LinedOrder: Decodable {
        struct Line: Decodable { var id: String; var size: String }
        var id: String
        var lines: [Line]
    }

    /// A pickup order of one S, moved by the owner to `statuses`; the order as its customer sees it.
    private func order(_ t: TestApp, _ shop: ShopFixture, _ shopper: Session, through statuses: [String]) async throws -> LinedOrder {
        #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: shopper.accessToken).status == .ok)
        let placed = try await t.checkout(token: shopper.accessToken).content.decode(CheckoutResponse.self).orders[0]
        for status in statuses {
            let moved = try await t.send(
                .POST, "/api/v1/stores/\(shop.storeID)/orders/\(placed.id)/transition", json: #"{"to":"\#(status)"}"#, token: shop.owner.accessToken)
            #expect(moved.status == .ok, "\(moved.body.string)")
        }
        let read = try await t.send(.GET, "/api/v1/orders/\(placed.id)", token: shopper.accessToken)
        #expect(read.status == .ok, "\(read.body.string)")
        return try read.content.decode(LinedOrder.self)
    }

    @Test("order lines carry ids; a completed line goes into the closet once, with its size and price; others are refused")
    func api() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture()
            let shopper = try await t.signUp()
            let open = try await order(t, shop, shopper, through: [])
            let done = try await order(t, shop, shopper, through: ["confirmed", "readyForPickup", "completed"])
            #expect(done.lines.count == 1 && UUID(uuidString: done.lines[0].id) != nil)
            func add(_ line: String, token: String) async throws -> TestingHTTPResponse {
                try await t.send(.POST, "/api/v1/me/closet/items", json: #"{"orderLineId":"\#(line)"}"#, token: token)
            }
            let before = try await ClosetItem.query(on: t.app.db).count()
            // Not completed yet, somebody else's line, not an id: refused, nothing written.
            #expect(try await add(open.lines[0].id, token: shopper.accessToken).status == .conflict)
            let stranger = try await t.signUp()
            #expect(try await add(done.lines[0].id, token: stranger.accessToken).status == .notFound)
            let garbled = try await add("line-7", token: shopper.accessToken)
            #expect(garbled.status == .unprocessableEntity)
            #expect(try garbled.problem().fields == ["orderLineId"])
            #expect(try await ClosetItem.query(on: t.app.db).count() == before)

            let added = try await add(done.lines[0].id, token: shopper.accessToken)
            #expect(added.status == .created, "\(added.body.string)")
            struct Items: Decodable { var items: [ClosetItemBody] }
            let item = try #require(try added.content.decode(Items.self).items.first)
            #expect(item.price?.amount == 49_900)
            let stored = try #require(try await ClosetItem.find(UUID(uuidString: item.id), on: t.app.db))
            #expect(stored.size == "S" && stored.orderLineID?.idString == done.lines[0].id && stored.productID?.idString == shop.productID)
            // Twice is a 409 naming the line, and still one item.
            let again = try await add(done.lines[0].id, token: shopper.accessToken)
            #expect(again.status == .conflict)
            #expect(try again.problem().fields == ["orderLineId"])
            #expect(try await ClosetItem.query(on: t.app.db).count() == before + 1)
        }
    }

    @Test("the receipt of a completed order offers Add to my closet; the piece opens in the closet, and again opens the same one")
    func web() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture()
            let email = uniqueEmail("buyer")
            let shopper = try await t.signUp(email: email)
            let open = try await order(t, shop, shopper, through: [])
            let done = try await order(t, shop, shopper, through: ["confirmed", "readyForPickup", "completed"])
            let web = CatalogWebTests()
            let forms = AccountsWebTests()
            let cookie = try await web.webSignIn(t, email: email)
            #expect(!(try await web.get(t, "/orders/\(open.id)", cookie: cookie).body.string.contains("data-action=\"add-to-closet\"")))
            let receipt = try await forms.openForm(t, "/orders/\(done.id)", cookie: cookie)
            #expect(receipt.html.contains("action=\"/closet/order-lines/\(done.lines[0].id)\""))
            // Staff see the order without the button.
            let ownerCookie = try await web.webSignIn(t, email: shop.owner.user.email!)
            let staffView = try await web.get(t, "/portal/stores/\(shop.storeID)/orders?queue=done", cookie: ownerCookie)
            #expect(staffView.status == .ok)
            #expect(!staffView.body.string.contains("data-action=\"add-to-closet\""))

            let added = try await forms.post(t, "/closet/order-lines/\(done.lines[0].id)", form: ["csrfToken": receipt.csrf], cookie: cookie)
            #expect(added.status == .seeOther)
            let item = try #require(try await ClosetItem.query(on: t.app.db).filter(\.$orderLineID == UUID(uuidString: done.lines[0].id)).first())
            #expect(added.headers.first(name: .location) == "/closet/items/\(item.id!.idString)")
            let again = try await forms.post(t, "/closet/order-lines/\(done.lines[0].id)", form: ["csrfToken": receipt.csrf], cookie: cookie)
            #expect(again.headers.first(name: .location) == "/closet/items/\(item.id!.idString)")
            #expect(try await ClosetItem.query(on: t.app.db).filter(\.$orderLineID == UUID(uuidString: done.lines[0].id)).count() == 1)
        }
    }
}
