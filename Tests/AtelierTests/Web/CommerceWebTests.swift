import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: the portal's stock, barcode box, trade customers and discount codes; the signed-out cart")
struct CommerceWebTests {
    let forms = AccountsWebTests()
    let catalog = CatalogWebTests()

    @Test("staff find a size by barcode, change its stock, approve a trade customer and create a code; others get 404")
    func portalPages() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let owner = try await catalog.webSignIn(t, email: shop.owner.user.email!)
            for path in ["orders", "orders?queue=done", "orders/picklist", "stock", "stock?low=1", "trade", "codes"] {
                let page = try await catalog.get(t, "/portal/stores/\(shop.storeID)/\(path)", cookie: owner)
                #expect(page.status == .ok, "\(path): \(page.body.string.prefix(300))")
            }
            let other = try await catalog.webSignIn(t, email: shop.catalog.ownerB.user.email!)
            #expect(try await catalog.get(t, "/portal/stores/\(shop.storeID)/stock", cookie: other).status == .notFound)

            // Set a barcode and a new count through the stock form, then find the size by scanning the code as UPC-A.
            let stock = try await forms.openForm(t, "/portal/stores/\(shop.storeID)/stock", cookie: owner)
            let saved = try await forms.post(
                t, "/portal/stores/\(shop.storeID)/stock/\(shop.sizeS)", form: ["onHand": "7", "gtin": "0036000291452", "threshold": "2", "csrfToken": stock.csrf],
                cookie: owner)
            #expect(saved.status == .seeOther)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.stock == 7 && variant.gtin == "0036000291452" && variant.lowStockThreshold == 2)
            let found = try await catalog.get(t, "/portal/stores/\(shop.storeID)/stock?code=036000291452", cookie: owner)
            #expect(found.body.string.contains("0036000291452: Linen shirt, S"))
            let wrong = try await catalog.get(t, "/portal/stores/\(shop.storeID)/stock?code=036000291453", cookie: owner)
            #expect(wrong.body.string.contains("wrong check digit"))

            // A bar applies through the API; staff approve it on the trade page.
            let bar = try await t.signUp(name: "Bar Nova")
            try await t.send(.POST, "/api/v1/stores/\(shop.storeID)/trade-customers", json: #"{"companyName":"Bar Nova AB"}"#, token: bar.accessToken)
            let trade = try await forms.openForm(t, "/portal/stores/\(shop.storeID)/trade", cookie: owner)
            #expect(trade.html.contains("Bar Nova AB"))
            let approved = try await forms.post(
                t, "/portal/stores/\(shop.storeID)/trade/\(bar.user.id.lowercased())", form: ["decision": "approve", "csrfToken": trade.csrf], cookie: owner)
            #expect(approved.status == .seeOther)
            #expect(try await TradeCustomer.query(on: t.app.db).first()?.status == "approved")

            let codes = try await forms.openForm(t, "/portal/stores/\(shop.storeID)/codes", cookie: owner)
            let created = try await forms.post(
                t, "/portal/stores/\(shop.storeID)/codes",
                form: ["code": "spring20", "kind": "fixed", "value": "20", "minimum": "200", "totalLimit": "50", "csrfToken": codes.csrf], cookie: owner)
            #expect(created.status == .seeOther)
            let code = try #require(try await DiscountCode.query(on: t.app.db).filter(\.$code == "SPRING20").first())
            #expect(code.value == 2_000 && code.minimumOrderMinor == 20_000 && code.totalLimit == 50)
        }
    }

    @Test("a signed-out visitor's cart is kept for the session and joins the account's at sign-in, capped by what is available")
    func signedOutCartMerges() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: shopper.accessToken).status == .ok)

            let product = try await forms.openForm(t, "/products/\(shop.productID)")
            let added = try await forms.post(
                t, "/cart/add", form: ["variantID": shop.sizeS, "quantity": "2", "productID": shop.productID, "csrfToken": product.csrf],
                cookie: product.cookie)
            #expect(added.status == .seeOther)
            let cart = try await catalog.get(t, "/cart", cookie: product.cookie)
            #expect(cart.body.string.contains("Linen shirt") && cart.body.string.contains("signin-to-checkout"))

            let signin = try await forms.openForm(t, "/signin", cookie: product.cookie)
            let signedIn = try await forms.post(
                t, "/signin", form: ["email": shopper.user.email!, "password": TestApp.password, "csrfToken": signin.csrf], cookie: signin.cookie)
            #expect(signedIn.status == .seeOther)
            // 2 already in the account's cart + 2 from the visit, capped at the 3 available.
            let lines = try await CartLine.query(on: t.app.db).all()
            #expect(lines.count == 1 && lines[0].quantity == 3)
            #expect(try await Cart.query(on: t.app.db).count() == 1)
        }
    }
}
