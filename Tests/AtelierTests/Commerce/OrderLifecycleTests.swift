import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Commerce: order states, holds that expire, cancellation, price changes, age")
struct OrderLifecycleTests {
    @Test("a reservation not collected by its deadline expires on the clock: stock returns once, the shopper is told")
    func reservationExpires() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 4)
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: shopper.accessToken).status == .ok)
            let placed = try await t.checkout(token: shopper.accessToken, fulfilment: "reserve")
            #expect(placed.status == .created, "\(placed.body.string)")
            let order = try placed.content.decode(CheckoutResponse.self).orders[0]
            #expect(order.status == "placed")
            #expect(order.holdUntil == t.clock.now().addingTimeInterval(48 * 3600))
            #expect(try await t.variantStock(shop.sizeS).held == 2)

            let orders = OrderService(db: t.app.db, core: t.app.core, live: t.app.atelier.live)
            t.clock.advance(by: 47 * 3600)
            #expect(try await orders.expireDue() == 0)
            #expect(try await t.variantStock(shop.sizeS).available == 2)

            t.clock.advance(by: 3600)
            #expect(try await orders.expireDue() == 1)
            #expect(try await orders.expireDue() == 0)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.stock == 4 && variant.available == 4)
            // 48 hours on, the access tokens of the sign-up have expired.
            let token = try await t.freshToken(shopper)
            let detailResponse = try await t.send(.GET, "/api/v1/orders/\(order.id)", token: token)
            #expect(detailResponse.status == .ok, "\(detailResponse.body.string)")
            let detail = try detailResponse.content.decode(OrderResponse.self)
            #expect(detail.status == "expired")
            #expect(detail.history.map(\.to) == ["placed", "expired"])
            let inbox = try await InboxEntry.query(on: t.app.db).filter(\.$recipientID == UUID(uuidString: shopper.user.id)!)
                .filter(\.$kind == "orderUpdated").all()
            #expect(inbox.contains { $0.text.contains("expired") })
            // Staff can no longer confirm it.
            let late = try await t.send(
                .POST, "/api/v1/stores/\(shop.storeID)/orders/\(order.id)/transition", json: #"{"to":"confirmed"}"#, token: try await t.freshToken(shop.owner))
            #expect(late.status == .conflict)
        }
    }

    @Test("cancelling twice (and racing) releases the stock once")
    func cancelTwice() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, quantity: 3, token: shopper.accessToken).status == .ok)
            let order = try await t.checkout(token: shopper.accessToken).content.decode(CheckoutResponse.self).orders[0]
            #expect(try await t.variantStock(shop.sizeS).available == 0)
            let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
                for _ in 0..<5 {
                    group.addTask { try await t.send(.POST, "/api/v1/orders/\(order.id)/cancel", json: "{}", token: shopper.accessToken).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok || $0 == .conflict }, "\(statuses)")
            let again = try await t.send(.POST, "/api/v1/orders/\(order.id)/cancel", json: #"{"reason":"changed my mind"}"#, token: shopper.accessToken)
            #expect(again.status == .ok)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.allocated == 0 && variant.available == 3 && variant.stock == 3)
            let events = try await OrderEvent.query(on: t.app.db).filter(\.$orderID == UUID(uuidString: order.id)!).all()
            #expect(events.filter { $0.toStatus == "cancelled" }.count == 1)
        }
    }

    @Test("staff confirm, mark ready and hand over; the shopper cannot cancel after confirmation; stock leaves at handover")
    func staffFlow() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let shopper = try await t.signUp()
            let owner = shop.owner.accessToken
            #expect(try await t.addToCart(shop.sizeS, token: shopper.accessToken).status == .ok)
            let order = try await t.checkout(token: shopper.accessToken).content.decode(CheckoutResponse.self).orders[0]
            let base = "/api/v1/stores/\(shop.storeID)/orders/\(order.id)/transition"

            struct Queue: Decodable { struct Counts: Decodable { var new: Int; var confirmed: Int }; var items: [OrderResponse]; var counts: Counts }
            let queue = try await t.send(.GET, "/api/v1/stores/\(shop.storeID)/orders?queue=new", token: owner).content.decode(Queue.self)
            #expect(queue.items.map(\.id) == [order.id] && queue.counts.new == 1)
            // Another store's staff and the shopper see no queue.
            #expect(try await t.send(.GET, "/api/v1/stores/\(shop.storeID)/orders", token: shop.catalog.ownerB.accessToken).status == .notFound)
            #expect(try await t.send(.POST, base, json: #"{"to":"confirmed"}"#, token: shopper.accessToken).status == .notFound)

            #expect(try await t.send(.POST, base, json: #"{"to":"readyForPickup"}"#, token: owner).status == .conflict)
            #expect(try await t.send(.POST, base, json: #"{"to":"confirmed"}"#, token: owner).status == .ok)
            let lateCancel = try await t.send(.POST, "/api/v1/orders/\(order.id)/cancel", json: "{}", token: shopper.accessToken)
            #expect(lateCancel.status == .conflict, "\(lateCancel.body.string)")
            #expect(try await t.send(.POST, base, json: #"{"to":"readyForPickup"}"#, token: owner).status == .ok)
            let ready = try await t.send(.GET, "/api/v1/orders/\(order.id)", token: shopper.accessToken).content.decode(OrderResponse.self)
            #expect(ready.status == "readyForPickup")
            #expect(try await t.variantStock(shop.sizeS).allocated == 1)
            let done = try await t.send(.POST, base, json: #"{"to":"completed"}"#, token: owner)
            #expect(done.status == .ok)
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.stock == 2 && variant.allocated == 0 && variant.available == 2)
            let history = try done.content.decode(OrderResponse.self).history.map(\.to)
            #expect(history == ["placed", "confirmed", "readyForPickup", "completed"])
            // The handover is a sale in the store's stats (API and the portal chart).
            let today = try await StoreStatsService(db: t.app.db, core: t.app.core)
                .series(storeID: UUID(uuidString: shop.storeID)!, days: 1)[0]
            #expect(today.orders == 1 && today.salesMinor == 49_900)
            let stats = try await t.send(.GET, "/api/v1/stores/\(shop.storeID)/stats?days=1", token: owner)
            #expect(stats.body.string.contains(#""salesMinor":49900"#))
            // Cancelling by staff needs a reason, and a completed order cannot be cancelled.
            #expect(try await t.send(.POST, base, json: #"{"to":"cancelled","reason":"x"}"#, token: owner).status == .conflict)
        }
    }

    @Test("a price change between cart and checkout is a 409 with the new price; nothing is ordered until it is accepted")
    func priceChange() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, token: shopper.accessToken).status == .ok)
            let product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            product.priceMinor = 59_900
            try await product.update(on: t.app.db)

            let cart = try await t.send(.GET, "/api/v1/cart", token: shopper.accessToken).content.decode(CartResponse.self)
            let issue = try #require(cart.stores.first?.lines.first?.issues.first)
            #expect(issue.kind == "priceChanged" && issue.previousPrice?.amount == 49_900)
            #expect(cart.stores[0].lines[0].unitPrice.amount == 59_900)

            let refused = try await t.checkout(token: shopper.accessToken)
            #expect(refused.status == .conflict)
            let problem = try refused.problem()
            #expect(problem.fields == ["lines.\(shop.sizeS).price"])
            #expect(problem.detail?.contains("599") == true)
            #expect(try await t.orderCount(of: shop.storeID) == 0)
            #expect(try await t.variantStock(shop.sizeS).available == 3)

            #expect(try await t.send(.POST, "/api/v1/cart/accept-changes", token: shopper.accessToken).status == .ok)
            let ordered = try await t.checkout(token: shopper.accessToken)
            #expect(ordered.status == .created)
            #expect(try ordered.content.decode(CheckoutResponse.self).orders[0].total.amount == 59_900)
        }
    }

    @Test("with legal age 18, a 17-year-old is refused at add-to-cart and at checkout (403 with the reason); an adult is not")
    func ageRestricted() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            // The product is a shirt; restricting its parent category (tops) covers it.
            let settings = TestApp.settingsJSON + #","legalAge":18,"restrictedCategoryIds":["\#(shop.catalog.tops.id!.idString)"]}"#
            #expect(try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: settings, token: shop.owner.accessToken).status == .ok)

            let today = t.clock.now()
            func birthDate(yearsAgo: Int, plusDays: Int) -> String {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = .gmt
                let date = calendar.date(byAdding: .day, value: plusDays, to: calendar.date(byAdding: .year, value: -yearsAgo, to: today)!)!
                let c = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            }
            let teen = try await t.signUp()
            let noDate = try await t.signUp()
            let adult = try await t.signUp()
            for (session, date) in [(teen, birthDate(yearsAgo: 18, plusDays: 1)), (adult, birthDate(yearsAgo: 18, plusDays: 0))] {
                let patched = try await t.send(.PATCH, "/api/v1/me", json: #"{"birthDate":"\#(date)"}"#, token: session.accessToken)
                #expect(patched.status == .ok, "\(patched.body.string)")
            }
            let refused = try await t.addToCart(shop.sizeS, token: teen.accessToken)
            #expect(refused.status == .forbidden)
            #expect(try refused.problem().detail?.contains("18 or over") == true)
            #expect(try await t.addToCart(shop.sizeS, token: noDate.accessToken).status == .forbidden)
            #expect(try await t.addToCart(shop.sizeS, token: adult.accessToken).status == .ok)

            // The teen's line, put there before the store restricted the category, is refused at checkout.
            try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: TestApp.settingsJSON + "}", token: shop.owner.accessToken)
            #expect(try await t.addToCart(shop.sizeS, token: teen.accessToken).status == .ok)
            try await t.send(.PUT, "/api/v1/stores/\(shop.storeID)/commerce", json: settings, token: shop.owner.accessToken)
            let atCheckout = try await t.checkout(token: teen.accessToken)
            #expect(atCheckout.status == .forbidden)
            #expect(try atCheckout.problem().type.hasSuffix("age-required"))
            #expect(try await t.checkout(token: adult.accessToken).status == .created)
            #expect(try await t.orderCount(of: shop.storeID) == 1)
        }
    }

    @Test("a customer who deletes their account: open orders are cancelled with their stock returned, completed ones stay with the store")
    func accountDeletion() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 5)
            let shopper = try await t.signUp()
            let owner = shop.owner.accessToken
            #expect(try await t.addToCart(shop.sizeS, quantity: 1, token: shopper.accessToken).status == .ok)
            let done = try await t.checkout(token: shopper.accessToken).content.decode(CheckoutResponse.self).orders[0]
            for status in ["confirmed", "readyForPickup", "completed"] {
                let moved = try await t.send(
                    .POST, "/api/v1/stores/\(shop.storeID)/orders/\(done.id)/transition", json: #"{"to":"\#(status)"}"#, token: owner)
                #expect(moved.status == .ok, "\(moved.body.string)")
            }
            #expect(try await t.addToCart(shop.sizeS, quantity: 2, token: shopper.accessToken).status == .ok)
            let open = try await t.checkout(token: shopper.accessToken, fulfilment: "reserve").content.decode(CheckoutResponse.self).orders[0]
            #expect(try await t.variantStock(shop.sizeS).held == 2)

            let deleted = try await t.send(.DELETE, "/api/v1/me", json: #"{"password":"\#(TestApp.password)"}"#, token: shopper.accessToken)
            #expect(deleted.status == .noContent || deleted.status == .ok, "\(deleted.body.string)")
            let variant = try await t.variantStock(shop.sizeS)
            #expect(variant.held == 0 && variant.allocated == 0 && variant.stock == 4 && variant.available == 4)
            let orders = try await Order.query(on: t.app.db).filter(\.$storeID == UUID(uuidString: shop.storeID)!).all()
            #expect(orders.count == 2 && orders.allSatisfy { $0.userID == nil })
            #expect(orders.first { $0.id == UUID(uuidString: open.id) }?.status == "cancelled")
            #expect(orders.first { $0.id == UUID(uuidString: done.id) }?.status == "completed")
            let queue = try await t.send(.GET, "/api/v1/stores/\(shop.storeID)/orders", token: owner)
            #expect(queue.status == .ok)
        }
    }

    @Test("a product form opened before a handover cannot write the sold piece back: its stale count is a 409; a fresh one saves")
    func staleProductForm() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture(stockS: 3)
            let owner = shop.owner.accessToken
            let shopper = try await t.signUp()
            #expect(try await t.addToCart(shop.sizeS, token: shopper.accessToken).status == .ok)
            let order = try await t.checkout(token: shopper.accessToken).content.decode(CheckoutResponse.self).orders[0]
            let photo = try #require(try await ProductPhoto.query(on: t.app.db).filter(\.$product.$id == UUID(uuidString: shop.productID)!).first())
            func edit(stockS: Int, loadedS: Int) -> String {
                TestApp.productJSON(category: shop.catalog.shirts, photos: [photo.$media.id.idString], status: "active")
                    .replacingOccurrences(
                        of: #"[{"size":"S","stock":2},{"size":"M","stock":1}]"#,
                        with: #"[{"size":"S","stock":\#(stockS),"expectedStock":\#(loadedS)},{"size":"M","stock":3,"expectedStock":3}]"#)
            }
            // The form was opened with S at 3; then the piece is handed over (S goes to 2).
            for status in ["confirmed", "readyForPickup", "completed"] {
                try await t.send(.POST, "/api/v1/stores/\(shop.storeID)/orders/\(order.id)/transition", json: #"{"to":"\#(status)"}"#, token: owner)
            }
            #expect(try await t.variantStock(shop.sizeS).stock == 2)
            let path = "/api/v1/stores/\(shop.storeID)/products/\(shop.productID)"
            let stale = try await t.send(.PUT, path, json: edit(stockS: 3, loadedS: 3), token: owner)
            #expect(stale.status == .conflict, "\(stale.body.string)")
            #expect(try stale.problem().fields == ["variants[0].stock"])
            #expect(try await t.variantStock(shop.sizeS).stock == 2)
            let fresh = try await t.send(.PUT, path, json: edit(stockS: 4, loadedS: 2), token: owner)
            #expect(fresh.status == .ok, "\(fresh.body.string)")
            #expect(try await t.variantStock(shop.sizeS).stock == 4)
        }
    }
}
