import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: reviews with verified purchase and top rated, barcode lookup, affiliate redirects")
struct ReviewsAndCodesTests {
    struct ReviewBody: Decodable { var id: String; var stars: Int; var verifiedPurchase: Bool; var reply: String? }
    struct ReviewPage: Decodable {
        struct Rating: Decodable { var average: Double; var count: Int }
        var items: [ReviewBody]
        var rating: Rating
    }

    @Test("one review per person, verified only after a completed order, the average stays exact, the store replies once, moderation hides")
    func reviews() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let buyer = try await t.signUp()
            let browser = try await t.signUp()
            let owner = shop.owner.accessToken
            let path = "/api/v1/products/\(shop.productID)/review"

            let early = try await t.send(.PUT, path, json: #"{"stars":4,"text":"Looks good"}"#, token: buyer.accessToken)
            #expect(try early.content.decode(ReviewBody.self).verifiedPurchase == false)
            #expect(try await t.addToCart(shop.sizeS, token: buyer.accessToken).status == .ok)
            let order = try await t.checkout(token: buyer.accessToken).content.decode(CheckoutResponse.self).orders[0]
            for status in ["confirmed", "readyForPickup", "completed"] {
                try await t.send(.POST, "/api/v1/stores/\(shop.storeID)/orders/\(order.id)/transition", json: #"{"to":"\#(status)"}"#, token: owner)
            }
            let verified = try await t.send(.PUT, path, json: #"{"stars":5,"text":"Fits perfectly"}"#, token: buyer.accessToken)
            let review = try verified.content.decode(ReviewBody.self)
            #expect(review.verifiedPurchase && review.stars == 5)
            #expect(try await t.send(.PUT, path, json: #"{"stars":2}"#, token: browser.accessToken).status == .ok)
            for bad in [#"{"stars":0}"#, #"{"stars":6}"#] {
                #expect(try await t.send(.PUT, path, json: bad, token: browser.accessToken).status == .unprocessableEntity)
            }
            var page = try await t.send(.GET, "/api/v1/products/\(shop.productID)/reviews").content.decode(ReviewPage.self)
            #expect(page.items.count == 2 && page.rating.count == 2 && page.rating.average == 3.5)

            let reply = "/api/v1/stores/\(shop.storeID)/reviews/\(review.id)/reply"
            #expect(try await t.send(.POST, reply, json: #"{"text":"Thank you!"}"#, token: owner).status == .ok)
            #expect(try await t.send(.POST, reply, json: #"{"text":"Again"}"#, token: owner).status == .conflict)
            #expect(try await t.send(.POST, reply, json: #"{"text":"Hi"}"#, token: shop.catalog.ownerB.accessToken).status == .notFound)

            // A report hidden by an admin stops counting.
            let browserReview = try #require(page.items.first { !$0.verifiedPurchase })
            let report = try await t.send(
                .POST, "/api/v1/reports", json: #"{"subjectType":"review","subjectId":"\#(browserReview.id)","reason":"spam"}"#, token: buyer.accessToken)
            #expect(report.status == .created, "\(report.body.string)")
            struct Created: Decodable { var id: String }
            let reportID = try report.content.decode(Created.self).id
            let hidden = try await t.send(.POST, "/api/v1/admin/reports/\(reportID)/resolve", json: #"{"action":"hide"}"#, token: shop.catalog.admin.accessToken)
            #expect(hidden.status == .ok, "\(hidden.body.string)")
            page = try await t.send(.GET, "/api/v1/products/\(shop.productID)/reviews").content.decode(ReviewPage.self)
            #expect(page.items.count == 1 && page.rating.count == 1 && page.rating.average == 5)
            #expect(page.items[0].reply == "Thank you!")

            #expect(try await t.send(.DELETE, path, token: buyer.accessToken).status == .noContent)
            let product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            #expect(product.reviewCount == 0 && product.ratingSum == 0)
        }
    }

    @Test("a reviewer who deletes their account takes their review out of the average; a double first review is one review")
    func reviewerLeaves() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let leaving = try await t.signUp()
            let staying = try await t.signUp()
            let path = "/api/v1/products/\(shop.productID)/review"
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<4 { group.addTask { try await t.send(.PUT, path, json: #"{"stars":1}"#, token: leaving.accessToken).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            #expect(try await t.send(.PUT, path, json: #"{"stars":5}"#, token: staying.accessToken).status == .ok)
            var product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            #expect(product.reviewCount == 2 && product.ratingSum == 6)
            let deleted = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: leaving.accessToken)
            #expect(deleted.status.code < 300)
            product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            #expect(product.reviewCount == 1 && product.ratingSum == 5)
        }
    }

    @Test("barcode lookup finds visible products by EAN-13 or UPC-A, nearest first; a wrong check digit is a 422")
    func barcode() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let path = "/api/v1/stores/\(shop.storeID)/variants/\(shop.sizeS)/stock"
            #expect(try await t.send(.PUT, path, json: #"{"onHand":5,"gtin":"0036000291452"}"#, token: shop.owner.accessToken).status == .ok)
            for code in ["036000291452", "0036000291452"] {
                let found = try await t.send(.GET, "/api/v1/products/by-code/\(code)?lat=57.7&lng=11.97&radiusKm=20")
                #expect(found.status == .ok)
                #expect(try found.content.decode(ProductPageBody.self).items.map { $0.id.lowercased() } == [shop.productID.lowercased()])
            }
            let far = try await t.send(.GET, "/api/v1/products/by-code/036000291452?lat=59.33&lng=18.06&radiusKm=20")
            #expect(try far.content.decode(ProductPageBody.self).items.isEmpty)
            #expect(try await t.send(.GET, "/api/v1/products/by-code/036000291453").status == .unprocessableEntity)
        }
    }

    @Test("/go/{productId} redirects to the product's shop and counts the click per day; no link is a 404")
    func affiliate() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            #expect(try await t.send(.GET, "/go/\(shop.productID)").status == .notFound)
            let product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            product.externalURL = "https://shop.example.com/linen-shirt?ref=atelier"
            try await product.update(on: t.app.db)
            for _ in 0..<3 {
                let response = try await t.send(.GET, "/go/\(shop.productID)")
                #expect(response.status == .seeOther || response.status == .found)
                #expect(response.headers.first(name: .location) == "https://shop.example.com/linen-shirt?ref=atelier")
            }
            let row = try await t.app.db.sql.raw("SELECT clicks FROM affiliate_clicks").first()
            #expect(try row?.decode(column: "clicks", as: Int.self) == 3)
            let today = try await StoreStatsService(db: t.app.db, core: t.app.core).series(storeID: UUID(uuidString: shop.storeID)!, days: 1)[0]
            #expect(today.shopClicks == 3)
        }
    }
}
