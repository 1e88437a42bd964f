import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: sign-in-to-browse stores, trade customers, trade prices, case multiples, invoices")
struct TradeAndAccessTests {
    struct TradeProduct: Decodable {
        struct Money: Decodable { var amount: Int }
        var id: String
        var tradePrice: Money?
        var caseSize: Int?
    }

    /// Store A as a drinks wholesaler: sign-in-to-browse, invoices, a trade price of 399.00 in cases of 6.
    func wholesaler(_ t: TestApp) async throws -> ShopFixture {
        let shop = try await t.shopFixture(stockS: 60)
        let owner = shop.owner.accessToken
        let members = TestApp.settings(["signInToBrowse": "true", "payByInvoice": "true"])
        #expect(try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: members, token: owner).status == .ok)
        let terms = try await t.send(
            .PUT, "/api/v1/stores/\(shop.storeID)/products/\(shop.productID)/trade-terms", json: #"{"tradePrice":39900,"caseSize":6}"#,
            token: owner)
        #expect(terms.status == .ok, "\(terms.body.string)")
        return shop
    }

    func approve(_ t: TestApp, _ shopper: Session, at shop: ShopFixture) async throws {
        let applied = try await t.send(
            .POST, "/api/v1/stores/\(shop.storeID)/trade-customers", json: #"{"companyName":"Bar Nova AB","vatNumber":"SE556000000001"}"#,
            token: shopper.accessToken)
        #expect(applied.status == .ok, "\(applied.body.string)")
        let decided = try await t.send(
            .POST, "/api/v1/stores/\(shop.storeID)/trade-customers/\(shopper.user.id.lowercased())/decision", json: #"{"approve":true}"#,
            token: shop.owner.accessToken)
        #expect(decided.status == .ok, "\(decided.body.string)")
    }

    @Test("a sign-in-to-browse store: its pages, products, search hits and share pages are 404 to visitors and unapproved shoppers")
    func signInToBrowse() async throws {
        try await TestApp.with { t in
            let shop = try await wholesaler(t)
            let slug = shop.catalog.storeA.slug
            try await SearchIndex(db: t.app.db).refresh(.products([UUID(uuidString: shop.productID)!]))
            let applicant = try await t.signUp()
            let stranger = try await t.signUp()
            #expect(try await t.send(
                .POST, "/api/v1/stores/\(slug)/trade-customers", json: #"{"companyName":"Bar Nova AB"}"#, token: applicant.accessToken).status == .ok)

            for token in [nil, stranger.accessToken, applicant.accessToken] {
                #expect(try await t.send(.GET, "/api/v1/stores/\(shop.storeID)", token: token).status == .notFound)
                #expect(try await t.send(.GET, "/api/v1/stores/\(shop.storeID)/products", token: token).status == .notFound)
                #expect(try await t.send(.GET, "/api/v1/products/\(shop.productID)", token: token).status == .notFound)
                let hits = try await t.send(.GET, "/api/v1/search/products?q=linen", token: token)
                #expect(hits.status == .ok)
                #expect(!hits.body.string.contains(shop.productID))
                let list = try await t.send(.GET, "/api/v1/products?categoryId=\(shop.catalog.women.id!.idString)", token: token)
                #expect(!list.body.string.contains(shop.productID))
                #expect(try await t.addToCart(shop.sizeS, quantity: 6, token: token ?? "").status != .ok)
            }
            for path in ["/products/\(shop.productID)", "/stores/\(slug)"] {
                #expect(try await t.send(.GET, path, headers: [("Accept", "text/html")]).status == .notFound)
            }
            // Approved, the applicant sees the store, the product and its trade terms.
            try await approve(t, applicant, at: shop)
            #expect(try await t.send(.GET, "/api/v1/stores/\(shop.storeID)", token: applicant.accessToken).status == .ok)
            let product = try await t.send(.GET, "/api/v1/products/\(shop.productID)", token: applicant.accessToken)
            #expect(product.status == .ok)
            let terms = try product.content.decode(TradeProduct.self)
            #expect(terms.tradePrice?.amount == 39_900 && terms.caseSize == 6)
            // Taking the approval back closes the store to them again.
            try await t.send(
                .POST, "/api/v1/stores/\(shop.storeID)/trade-customers/\(applicant.user.id.lowercased())/decision", json: #"{"approve":false}"#,
                token: shop.owner.accessToken)
            #expect(try await t.send(.GET, "/api/v1/products/\(shop.productID)", token: applicant.accessToken).status == .notFound)
        }
    }

    @Test("a shopper who is not an approved trade customer never sees trade prices; an approved one orders whole cases at them and may pay by invoice")
    func tradePrices() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 60)
            let owner = shop.owner.accessToken
            #expect(try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settings(["payByInvoice": "true"]), token: owner).status == .ok)
            try await t.send(
                .PUT, "/api/v1/stores/\(shop.storeID)/products/\(shop.productID)/trade-terms", json: #"{"tradePrice":39900,"caseSize":6}"#,
                token: owner)
            let consumer = try await t.signUp()
            let pending = try await t.signUp()
            let bar = try await t.signUp()
            try await t.send(.POST, "/api/v1/stores/\(shop.storeID)/trade-customers", json: #"{"companyName":"Pending AB"}"#, token: pending.accessToken)
            try await approve(t, bar, at: shop)

            for session in [consumer, pending] {
                let product = try await t.send(.GET, "/api/v1/products/\(shop.productID)", token: session.accessToken)
                #expect(!product.body.string.contains("tradePrice") && !product.body.string.contains("39900"))
                #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: session.accessToken).status == .ok)
                let cart = try await t.send(.GET, "/api/v1/cart", token: session.accessToken)
                #expect(try cart.content.decode(CartResponse.self).stores[0].lines[0].unitPrice.amount == 49_900)
                #expect(!cart.body.string.contains("39900"))
                let invoice = try await t.send(
                    .POST, "/api/v1/checkout", json: #"{"fulfilment":"pickup","paymentMethod":"invoice"}"#, token: session.accessToken,
                    headers: [("Idempotency-Key", UUID().uuidString)])
                #expect(invoice.status == .unprocessableEntity)
                #expect(try invoice.problem().fields == ["paymentMethod"])
            }
            #expect(try await t.send(.GET, "/api/v1/products/\(shop.productID)").body.string.contains("tradePrice") == false)

            let notCase = try await t.addToCart(shop.sizeS, quantity: 4, token: bar.accessToken)
            #expect(notCase.status == .unprocessableEntity)
            #expect(try notCase.problem().fields == ["quantity"])
            #expect(try await CartLine.query(on: t.app.db).count() == 2)
            #expect(try await t.addToCart(shop.sizeS, quantity: 12, token: bar.accessToken).status == .ok)
            let cart = try await t.send(.GET, "/api/v1/cart", token: bar.accessToken).content.decode(CartResponse.self)
            #expect(cart.stores[0].lines[0].unitPrice.amount == 39_900 && cart.stores[0].subtotal.amount == 12 * 39_900)
            let ordered = try await t.send(
                .POST, "/api/v1/checkout", json: #"{"fulfilment":"pickup","paymentMethod":"invoice"}"#, token: bar.accessToken,
                headers: [("Idempotency-Key", UUID().uuidString)])
            #expect(ordered.status == .created, "\(ordered.body.string)")
            let order = try ordered.content.decode(CheckoutResponse.self).orders[0]
            #expect(order.total.amount == 12 * 39_900 && order.lines[0].unitPrice.amount == 39_900)
        }
    }
}
