import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import Atelier

/// Typed delivery addresses (postcodes, or a radius with the address search) and VAT on orders (issue 51).
@Suite("Commerce: typed delivery addresses and VAT")
struct DeliveryAndVATTests {
    static let typedAddress = #""deliveryAddress":{"name":"Bar Nova","street":"Andra Långgatan 4","postalCode":"413 03","city":"Göteborg"}"#

    func deliver(_ t: TestApp, _ shop: ShopFixture, token: String, address: String = Self.typedAddress) async throws -> TestingHTTPResponse {
        try await t.send(
            .POST, "/api/v1/checkout", json: #"{"fulfilment":"delivery","paymentMethod":"invoice",\#(address)}"#, token: token,
            headers: [("Idempotency-Key", UUID().uuidString)])
    }

    @Test("a store delivering by postcode takes a typed address in its list and refuses another, naming the postcode; nothing is written")
    func postcodes() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 60)
            let owner = shop.owner.accessToken
            let bad = try await t.send(
                .PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settings(["payByInvoice": "true"], extra: #","deliveryPostcodes":["41303","x!"]"#),
                token: owner)
            #expect(bad.status == .unprocessableEntity)
            #expect(try bad.problem().fields == ["deliveryPostcodes[1]"])
            let settings = try await t.send(
                .PUT, "/api/v1/stores/\(shop.storeID)/commerce",
                json: TestApp.settings(["payByInvoice": "true"], extra: #","deliveryPostcodes":["413 03","41304"]"#), token: owner)
            #expect(settings.status == .ok, "\(settings.body.string)")
            #expect(try t.object(settings)["deliveryPostcodes"] as? [String] == ["41303", "41304"])
            let bar = try await t.signUp(name: "Bar")
            try await TradeAndAccessTests().approve(t, bar, at: shop)
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: bar.accessToken).status == .ok)
            let elsewhere = try await deliver(
                t, shop, token: bar.accessToken,
                address: #""deliveryAddress":{"name":"Bar","street":"Storgatan 1","postalCode":"111 22","city":"Stockholm"}"#)
            #expect(elsewhere.status == .unprocessableEntity)
            #expect(try elsewhere.problem().fields == ["deliveryAddress.postalCode"])
            #expect(try await Order.query(on: t.app.db).count() == 0)
            let ordered = try await deliver(t, shop, token: bar.accessToken)
            #expect(ordered.status == .created, "\(ordered.body.string)")
        }
    }

    @Test("a store delivering within a radius places a typed address through the address search; one it cannot place is a 422 naming it")
    func geocodedAddress() async throws {
        let search = try await Application.make(.testing)
        search.http.server.configuration.hostname = "127.0.0.1"
        search.http.server.configuration.port = 0
        search.get("search") { req -> Response in
            let street = req.query[String.self, at: "street"] ?? ""
            let places = street.hasPrefix("Andra Långgatan") ? #"[{"lat":"57.6995","lon":"11.9510","display_name":"Andra Långgatan 4"}]"# : "[]"
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: places))
        }
        try await search.server.start()
        let port = try #require(search.http.server.shared.localAddress?.port)
        do {
            try await TestApp.with(adjust: { $0.geocoderURL = "http://127.0.0.1:\(port)" }) { t in
                let shop = try await t.shopFixture(stockS: 60)
                #expect(try await t.send(
                    .PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settings(["payByInvoice": "true"]),
                    token: shop.owner.accessToken).status == .ok)
                let bar = try await t.signUp(name: "Bar")
                try await TradeAndAccessTests().approve(t, bar, at: shop)
                #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: bar.accessToken).status == .ok)
                let nowhere = try await deliver(
                    t, shop, token: bar.accessToken,
                    address: #""deliveryAddress":{"name":"Bar","street":"Nowhere Road 9","postalCode":"99999","city":"Atlantis"}"#)
                #expect(nowhere.status == .unprocessableEntity)
                #expect(try nowhere.problem().fields == ["deliveryAddress"])
                #expect(try await Order.query(on: t.app.db).count() == 0)
                let ordered = try await deliver(t, shop, token: bar.accessToken)
                #expect(ordered.status == .created, "\(ordered.body.string)")
                let address = (try t.object(ordered)["orders"] as? [[String: Any]])?.first?["deliveryAddress"] as? [String: Any]
                #expect(address?["lat"] as? Double == 57.6995 && address?["street"] as? String == "Andra Långgatan 4")
            }
        } catch {
            await search.server.shutdown()
            try await search.asyncShutdown()
            throw error
        }
        await search.server.shutdown()
        try await search.asyncShutdown()
    }

    @Test("VAT: rates per category, prices with or without VAT; the order's net, VAT and gross agree to the öre; a rate over 100 % is a 422")
    func vat() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 60)
            let owner = shop.owner.accessToken
            let shirts = shop.catalog.shirts.id!.idString
            for (extra, field) in [(#","vatRate":125"#, "vatRate"), (#","vatRate":25,"categoryVatRates":[{"categoryId":"\#(shirts)","rate":101}]"#, "categoryVatRates[0].rate")] {
                let bad = try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settings(extra: extra), token: owner)
                #expect(bad.status == .unprocessableEntity || bad.status == .badRequest, "\(bad.body.string)")
                if bad.status == .unprocessableEntity { #expect(try bad.problem().fields == [field]) }
            }
            // Prices include 25 %; shirts (under Women › Tops) are at 12 % through their parent's rate.
            let tops = shop.catalog.tops.id!.idString
            let included = try await t.send(
                .PUT, "/api/v1/stores/\(shop.storeID)/commerce",
                json: TestApp.settings(extra: #","vatRate":25,"categoryVatRates":[{"categoryId":"\#(tops)","rate":12}]"#), token: owner)
            #expect(included.status == .ok, "\(included.body.string)")
            let ana = try await t.signUp(name: "Ana")
            #expect(try await t.addToCart(shop.sizeS, quantity: 3, token: ana.accessToken).status == .ok)
            let order = try t.object(try await t.checkout(token: ana.accessToken))
            let placed = try #require((order["orders"] as? [[String: Any]])?.first)
            let vat = try #require(placed["vat"] as? [String: Any])
            // 3 × 499.00 = 1 497.00 gross at 12 %: VAT 1 497.00 × 12 / 112 = 160.39.
            #expect(vat["pricesIncludeVat"] as? Bool == true)
            #expect((vat["vat"] as? [String: Any])?["amount"] as? Int == 16_039)
            #expect((vat["net"] as? [String: Any])?["amount"] as? Int == 149_700 - 16_039)
            #expect((vat["gross"] as? [String: Any])?["amount"] as? Int == 149_700)
            #expect((placed["total"] as? [String: Any])?["amount"] as? Int == 149_700)
            #expect((vat["rates"] as? [[String: Any]])?.map { $0["rate"] as? Double } == [12])

            // Without VAT in the prices, the order adds it: 2 × 499.00 net at 25 %.
            #expect(try await t.send(
                .PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settings(extra: #","vatRate":25,"pricesIncludeVat":false"#),
                token: owner).status == .ok)
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: ana.accessToken).status == .ok)
            let excluded = try #require((try t.object(try await t.checkout(token: ana.accessToken))["orders"] as? [[String: Any]])?.first)
            let excludedVAT = try #require(excluded["vat"] as? [String: Any])
            #expect((excludedVAT["net"] as? [String: Any])?["amount"] as? Int == 99_800)
            #expect((excludedVAT["vat"] as? [String: Any])?["amount"] as? Int == 24_950)
            #expect((excluded["total"] as? [String: Any])?["amount"] as? Int == 124_750)
        }
    }

    @Test("the breakdown agrees to the öre: every rate's net + VAT = gross, a discount shared among rates, the delivery fee at the store's rate")
    func breakdownSums() {
        let cases: [(lines: [(Int, Int)], discount: Int, fee: Int, included: Bool)] = [
            ([(2500, 999), (1200, 333), (600, 1)], 101, 4900, true),
            ([(2500, 12_345), (1200, 67_891)], 7_777, 0, false),
            ([(0, 500)], 0, 0, true),
        ]
        for item in cases {
            let breakdown = VATBreakdown(
                lines: item.lines.map { (basisPoints: $0.0, minor: $0.1) }, discountMinor: item.discount, deliveryFeeMinor: item.fee,
                deliveryBasisPoints: 2500, pricesIncludeVAT: item.included)
            for rate in breakdown.rates { #expect(rate.netMinor + rate.vatMinor == rate.grossMinor) }
            let paidBeforeVAT = item.lines.reduce(0) { $0 + $1.1 } - item.discount + item.fee
            #expect((item.included ? breakdown.grossMinor : breakdown.netMinor) == paidBeforeVAT)
        }
    }
}
