import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: no oversell, idempotent checkout, exact discount limits")
struct CheckoutConcurrencyTests {
    @Test("200 concurrent checkouts of a variant with 10 available: exactly 10 orders, 190 × 409 naming the line, stock ends at 0")
    func noOversell() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 10)
            let shoppers = try await t.shoppers(200)
            for token in shoppers { #expect(try await t.addToCart(shop.sizeS, token: token).status == .ok) }

            let statuses = try await withThrowingTaskGroup(of: (Int, ProblemBody?).self) { group in
                for token in shoppers {
                    group.addTask {
                        let response = try await t.checkout(token: token)
                        return (Int(response.status.code), response.status == .conflict ? try response.problem() : nil)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0.0 == 201 }.count == 10)
            let conflicts = statuses.filter { $0.0 == 409 }
            #expect(conflicts.count == 190)
            #expect(conflicts.allSatisfy { $0.1?.fields == ["lines.\(shop.sizeS)"] })
            #expect(try await t.orderCount(of: shop.storeID) == 10)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.stock == 10 && variant.allocated == 10 && variant.held == 0 && variant.available == 0)
            // Order numbers are sequential per store, without gaps from the refused checkouts.
            let numbers = try await Order.query(on: t.app.db).filter(\.$storeID == UUID(uuidString: shop.storeID)!).all().map(\.number)
            #expect(numbers.sorted() == Array(1...10))
        }
    }

    @Test("two lines of one cart drawing on one variant count together: 3 + 3 of 5 available is refused, 2 + 3 is ordered")
    func twoLinesOneVariant() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let token = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 3, token: token).status == .ok)
            // The API merges an added variant into its line; a second line of the same variant can
            // still arise (a sign-in merge racing an add), and checkout must not count it apart.
            let line = try #require(try await CartLine.query(on: t.app.db).filter(\.$variantID == UUID(uuidString: shop.sizeS)!).first())
            let second = CartLine()
            second.id = UUID()
            second.cartID = line.cartID
            second.variantID = line.variantID
            second.quantity = 3
            second.seenPriceMinor = line.seenPriceMinor
            second.addedAt = t.clock.now()
            try await second.create(on: t.app.db)

            let refused = try await t.checkout(token: token)
            #expect(refused.status == .conflict)
            #expect(try refused.problem().fields == ["lines.\(shop.sizeS)"])
            #expect(try await t.variantStock(shop.sizeS).available == 5)
            #expect(try await t.orderCount(of: shop.storeID) == 0)

            second.quantity = 2
            try await second.update(on: t.app.db)
            let ordered = try await t.checkout(token: token)
            #expect(ordered.status == .created, "\(ordered.body.string)")
            let order = try ordered.content.decode(CheckoutResponse.self).orders[0]
            #expect(order.lines.reduce(0) { $0 + $1.quantity } == 5)
            #expect(try await t.variantStock(shop.sizeS).available == 0)
        }
    }

    @Test("the same holds for two carts racing on both lines of one variant: concurrent 3 + 3 never takes more than 5")
    func concurrentTwoLineCarts() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let shoppers = try await t.shoppers(20)
            for token in shoppers {
                #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: token).status == .ok)
                #expect(try await t.addToCart(shop.sizeM, quantity: 1, token: token).status == .ok)
            }
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for token in shoppers { group.addTask { try await t.checkout(token: token).status == .created } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            // S: 5 available, 2 each → 2 orders; M: 3 available, 1 each; a checkout takes both or nothing.
            #expect(created == 2)
            let s = try await t.variantStock(shop.sizeS)
            let m = try await t.variantStock(shop.sizeM)
            #expect(s.allocated == 4 && s.available == 1)
            #expect(m.allocated == 2 && m.available == 1)
        }
    }

    @Test("20 concurrent replays of one checkout with one Idempotency-Key make one order; the key with another body is a 422")
    func idempotentCheckout() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 10)
            let token = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: token).status == .ok)
            let key = UUID().uuidString
            let responses = try await withThrowingTaskGroup(of: (UInt, String).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let response = try await t.checkout(token: token, key: key)
                        return (response.status.code, response.body.string)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await t.orderCount(of: shop.storeID) == 1)
            #expect(try await t.variantStock(shop.sizeS).allocated == 2)
            // Every answer is the order, or "still being handled" while the first ran.
            #expect(responses.allSatisfy { $0.0 == 201 || $0.0 == 409 })
            let replay = try await t.checkout(token: token, key: key)
            #expect(replay.status == .created)
            #expect(replay.headers.first(name: "Idempotent-Replayed") == "true")
            let other = try await t.checkout(token: token, key: key, fulfilment: "reserve")
            #expect(other.status == .unprocessableEntity)
            #expect(try other.problem().fields == ["Idempotency-Key"])
            #expect(try await t.orderCount(of: shop.storeID) == 1)
            let missing = try await t.send(.POST, "/api/v1/checkout", json: #"{"fulfilment":"pickup","paymentMethod":"payAtStore"}"#, token: token)
            #expect(missing.status == .badRequest)
        }
    }

    @Test("a code limited to 5 uses, tried by 50 concurrent checkouts: exactly 5 orders carry it")
    func discountLimit() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 100)
            let code = try await t.send(
                .POST, "/api/v1/stores/\(shop.storeID)/discount-codes",
                json: #"{"code":"summer10","kind":"percentage","value":10,"totalLimit":5}"#, token: shop.owner.accessToken)
            #expect(code.status == .created, "\(code.body.string)")
            let shoppers = try await t.shoppers(50)
            for token in shoppers { #expect(try await t.addToCart(shop.sizeS, token: token).status == .ok) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for token in shoppers { group.addTask { _ = try await t.checkout(token: token, extra: #","discountCode":"SUMMER10""#) } }
                try await group.waitForAll()
            }
            let orders = try await Order.query(on: t.app.db).filter(\.$storeID == UUID(uuidString: shop.storeID)!).all()
            #expect(orders.filter { $0.discountCode == "SUMMER10" }.count == 5)
            #expect(orders.filter { $0.discountCode == "SUMMER10" }.allSatisfy { $0.discountMinor == 4_990 && $0.totalMinor == 44_910 })
            #expect(try await DiscountCode.query(on: t.app.db).filter(\.$code == "SUMMER10").first()?.usedCount == 5)
            #expect(try await DiscountRedemption.query(on: t.app.db).count() == 5)
        }
    }

    @Test("a refusal is kept for its key: after a sold-out 409, a retry with the same key gets the 409 again even when stock came back")
    func refusalReplayed() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 1)
            let first = try await t.signUp().accessToken
            let second = try await t.signUp().accessToken
            #expect(try await t.addToCart(shop.sizeS, token: first).status == .ok)
            #expect(try await t.addToCart(shop.sizeS, token: second).status == .ok)
            #expect(try await t.checkout(token: first).status == .created)
            let key = UUID().uuidString
            let refused = try await t.checkout(token: second, key: key)
            #expect(refused.status == .conflict)
            try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/variants/\(shop.sizeS)/stock", json: #"{"onHand":5}"#, token: shop.owner.accessToken)
            let retried = try await t.checkout(token: second, key: key)
            #expect(retried.status == .conflict)
            #expect(retried.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(try await t.orderCount(of: shop.storeID) == 1)
            #expect(try await t.checkout(token: second).status == .created)
        }
    }

    @Test("one cart checked out twice at once under different keys (a double click) orders once; the receipt is mailed once")
    func oneCartTwice() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 10)
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: shopper.accessToken).status == .ok)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<6 { group.addTask { try await t.checkout(token: shopper.accessToken).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 != .created }.allSatisfy { $0 == .unprocessableEntity })
            #expect(try await t.orderCount(of: shop.storeID) == 1)
            #expect(try await t.variantStock(shop.sizeS).allocated == 2)
            try await t.deliverMail()
            let receipts = t.mailer.mails(to: shopper.user.email!).filter { $0.subject.hasPrefix("Your order 1 at") }
            #expect(receipts.count == 1)
            #expect(receipts.first?.text.contains("2 × Linen shirt, size S") == true)
        }
    }
}
