import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: bad input is a specific 4xx and writes nothing")
struct CommerceBadInputTests {
    @Test("cart: quantity of 0 or below, an unknown variant, more than available")
    func cartInput() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 2)
            let token = try await t.signUp().accessToken
            for quantity in [0, -3] {
                let response = try await t.addToCart(shop.sizeS, quantity: quantity, token: token)
                #expect(response.status == .unprocessableEntity)
                #expect(try response.problem().fields == ["quantity"])
            }
            #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: token).status == .ok)
            let huge = try await t.addToCart(shop.sizeS, quantity: Int.max, token: token)
            #expect(huge.status == .unprocessableEntity)
            #expect(try huge.problem().fields == ["quantity"])
            #expect(try await t.send(.DELETE, "/api/v1/cart", token: token).status == .ok)
            let unknown = try await t.addToCart(UUID().uuidString, token: token)
            #expect(unknown.status == .unprocessableEntity)
            #expect(try unknown.problem().fields == ["variantId"])
            let tooMany = try await t.addToCart(shop.sizeS, quantity: 3, token: token)
            #expect(tooMany.status == .unprocessableEntity)
            #expect(try tooMany.problem().errors?.first?.message.contains("only 2") == true)
            let negative = try await t.send(.PUT, "/api/v1/cart/lines/\(shop.sizeS)", json: #"{"quantity":-1}"#, token: token)
            #expect(negative.status == .unprocessableEntity)
            #expect(try await CartLine.query(on: t.app.db).count() == 0)
            // Signed out, there is no API cart.
            #expect(try await t.send(.GET, "/api/v1/cart").status == .unauthorized)
        }
    }

    @Test("stock: a variant of another store's product is a 404; a GTIN with a wrong check digit is a 422; nothing changes")
    func stockInput() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 2)
            let ownerB = shop.catalog.ownerB.accessToken
            let foreign = try await t.send(
                .PUT, "/api/v1/stores/\(shop.catalog.storeBID)/variants/\(shop.sizeS)/stock", json: #"{"onHand":50}"#, token: ownerB)
            #expect(foreign.status == .notFound)
            let path = "/api/v1/stores/\(shop.storeID)/variants/\(shop.sizeS)/stock"
            let owner = shop.owner.accessToken
            let badCheck = try await t.send(.PUT, path, json: #"{"onHand":7,"gtin":"4006381333932"}"#, token: owner)
            #expect(badCheck.status == .unprocessableEntity)
            #expect(try badCheck.problem().fields == ["gtin"])
            #expect(try await t.variantStock(shop.sizeS).stock == 2)

            let good = try await t.send(.PUT, path, json: #"{"onHand":7,"gtin":"4006381333931","lowStockThreshold":2}"#, token: owner)
            #expect(good.status == .ok, "\(good.body.string)")
            #expect(try await t.variantStock(shop.sizeS).gtin == "4006381333931")
            // UPC-A is kept as EAN-13.
            let upc = try await t.send(.PUT, path, json: #"{"onHand":7,"gtin":"036000291452"}"#, token: owner)
            #expect(try upc.content.decode([String: AnyDecodable].self)["gtin"]?.string == "0036000291452")

            // Stock on hand cannot go below what orders took.
            let shopper = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 5, token: shopper).status == .ok)
            #expect(try await t.checkout(token: shopper).status == .created)
            let below = try await t.send(.PUT, path, json: #"{"onHand":4}"#, token: owner)
            #expect(below.status == .conflict)
            #expect(try await t.variantStock(shop.sizeS).stock == 7)
            // A page loaded at 6 on hand must not overwrite the 7 there are now.
            let stale = try await t.send(.PUT, path, json: #"{"onHand":9,"expectedOnHand":6}"#, token: owner)
            #expect(stale.status == .conflict)
            #expect(try stale.problem().fields == ["onHand"])
            #expect(try await t.variantStock(shop.sizeS).stock == 7)
            #expect(try await t.send(.PUT, path, json: #"{"onHand":9,"expectedOnHand":7}"#, token: owner).status == .ok)
        }
    }

    @Test("checkout: an unknown or expired code, a delivery address outside the radius, an empty cart; nothing is ordered")
    func checkoutInput() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let owner = shop.owner.accessToken
            let expired = try await t.send(
                .POST, "/api/v1/stores/\(shop.storeID)/discount-codes",
                json: #"{"code":"OLD","kind":"fixed","value":1000,"endsAt":"2020-01-01T00:00:00Z"}"#, token: owner)
            #expect(expired.status == .created)
            let token = try await t.signUp().accessToken
            let empty = try await t.checkout(token: token)
            #expect(empty.status == .unprocessableEntity)
            #expect(try empty.problem().fields == ["cart"])
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: token).status == .ok)

            for code in ["NOPE", "old"] {
                let response = try await t.checkout(token: token, extra: #","discountCode":"\#(code)""#)
                #expect(response.status == .unprocessableEntity)
                #expect(try response.problem().fields == ["discountCode"])
            }
            // The store is in Gothenburg (57.705, 11.966) and delivers within 10 km; Stockholm is not.
            let far = try await t.send(
                .POST, "/api/v1/checkout",
                json: #"{"fulfilment":"delivery","paymentMethod":"card","deliveryAddress":{"name":"A","street":"Drottninggatan 1","postalCode":"11151","city":"Stockholm","lat":59.33,"lng":18.06}}"#,
                token: token, headers: [("Idempotency-Key", UUID().uuidString)])
            #expect(far.status == .unprocessableEntity)
            #expect(try far.problem().fields == ["deliveryAddress"])
            let noAddress = try await t.send(
                .POST, "/api/v1/checkout", json: #"{"fulfilment":"delivery","paymentMethod":"card"}"#, token: token,
                headers: [("Idempotency-Key", UUID().uuidString)])
            #expect(try noAddress.problem().fields == ["deliveryAddress"])

            #expect(try await t.orderCount(of: shop.storeID) == 0)
            #expect(try await t.variantStock(shop.sizeS).available == 5)
            #expect(try await CartLine.query(on: t.app.db).count() == 1)
        }
    }

    @Test("GTIN check digits: EAN-13, UPC-A and EAN-8")
    func gtinCheckDigits() throws {
        #expect(try GTIN.normalise("4006381333931").get() == "4006381333931")
        #expect(try GTIN.normalise("036000291452").get() == "0036000291452")
        #expect(try GTIN.normalise("96385074").get() == "96385074")
        #expect(try GTIN.normalise("9638 5074").get() == "96385074")
        for bad in ["4006381333932", "036000291453", "96385075", "12345", "40063813339x1"] {
            #expect((try? GTIN.normalise(bad).get()) == nil, "\(bad)")
        }
    }
}

/// Reads one JSON field of any type.
struct AnyDecodable: Decodable {
    var string: String?
    init(from decoder: any Decoder) throws {
        string = try? decoder.singleValueContainer().decode(String.self)
    }
}
