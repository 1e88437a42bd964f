import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Notifications: daily digests, email with one-click unsubscribe")
struct NotificationEmailTests {
    /// 2026-11-20 10:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_132_800 + 10 * 3600)

    @Test("at 18:00 local one digest of followed stores' new pieces and one of wishlist changes, by inbox, push and email (HTML, text, List-Unsubscribe); one click stops the emails")
    func digestsAndUnsubscribe() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            t.clock.set(Self.start)
            let shop = try await t.shopFixture()
            let email = uniqueEmail("digest")
            let shopper = try await t.signUp(email: email, name: "Dora")
            try await t.setTimeZone("Europe/Bucharest", for: shopper)  // UTC+2
            let user = try #require(try await User.find(UUID(uuidString: shopper.user.id)!, on: t.app.db))
            user.emailVerifiedAt = Self.start
            try await user.save(on: t.app.db)
            try await t.registerPhone(shopper)
            #expect(try await t.send(.PUT, "/api/v1/me/follows/stores/\(shop.storeID)", token: shopper.accessToken).status.code < 300)
            #expect(try await t.send(.PUT, "/api/v1/me/wishlist/\(shop.productID)", token: shopper.accessToken).status == .noContent)

            // 15:00 UTC is 17:00 in Bucharest: nothing yet. 16:00 UTC is 18:00: the followed stores' digest.
            try await t.tick(at: Self.start.addingTimeInterval(5 * 3600))
            #expect(try await t.inbox(shopper, kind: .newFromFollowedStores).isEmpty)
            try await t.tick(at: Self.start.addingTimeInterval(6 * 3600))
            try await t.tick(at: Self.start.addingTimeInterval(6 * 3600 + 1800))
            #expect(try await t.inbox(shopper, kind: .newFromFollowedStores).map(\.text) == ["1 new piece from a store you follow."])
            #expect(try await t.inbox(shopper, kind: .wishlistChanges).isEmpty, "the first digest only marks what the wishlist is")
            #expect(sender.messages.filter { $0.kind == "newFromFollowedStores" }.count == 1)
            try await t.deliverMail()
            let mail = try #require(t.mailer.mails(to: email).last)
            #expect(mail.subject == "1 new piece from a store you follow.")
            #expect(mail.text.contains("/feed"))
            #expect(mail.html?.contains("<a href=\"http") == true)
            let unsubscribe = try #require(mail.unsubscribeURL)
            let message = SMTPMessage.render(mail, from: "Atelier <no-reply@atelier.test>", now: Self.start, messageIDDomain: "atelier.test")
            #expect(message.contains("List-Unsubscribe: <\(unsubscribe)>\r\n"))
            #expect(message.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"))
            #expect(message.contains("Content-Type: multipart/alternative; boundary="))

            // The next day the product is cheaper: the wishlist digest says so (no new products: no store digest).
            let product = try #require(try await Product.find(UUID(uuidString: shop.productID)!, on: t.app.db))
            product.priceMinor -= 10_000
            try await product.save(on: t.app.db)
            try await t.tick(at: Self.start.addingTimeInterval(30 * 3600))
            #expect(try await t.inbox(shopper, kind: .wishlistChanges).map(\.text) == ["A piece on your wishlist is back in stock or cheaper."])
            #expect(try await t.inbox(shopper, kind: .newFromFollowedStores).count == 1)

            try await t.deliverMail()
            #expect(t.mailer.mails(to: email).map(\.subject).contains("A piece on your wishlist is back in stock or cheaper."))

            // A mail client's one-click POST (no session, no CSRF token) stops the store digest's emails.
            let path = String(unsubscribe[unsubscribe.range(of: "/unsubscribe/")!.lowerBound...])
            let page = try await t.send(.GET, path)
            #expect(page.status == .ok)
            #expect(page.body.string.contains("Stop these emails"))
            let clicked = try await t.app.testing().sendRequest(.POST, path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                  body: ByteBuffer(string: "List-Unsubscribe=One-Click"))
            #expect(clicked.status == .ok)
            let preferences = try await NotificationPreferencesService(db: t.app.db, core: t.app.core).settings(of: user.requireID())
            #expect(preferences.kinds.first { $0.kind == .newFromFollowedStores }?.email == false)
            #expect(preferences.kinds.first { $0.kind == .newFromFollowedStores }?.push == true)
            #expect(try await t.send(.POST, "/unsubscribe/forged.token").status == .notFound)
            #expect(try await t.send(.POST, path + "x").status == .notFound, "a changed signature")

            // Another new piece: the digest comes by push and inbox, no longer by email.
            let mailsBefore = t.mailer.mails(to: email).count
            t.clock.set(Self.start.addingTimeInterval(31 * 3600))
            let another = try await t.createProduct(
                in: shop.storeID, token: t.freshToken(shop.owner),
                json: TestApp.productJSON(category: shop.catalog.shirts, photos: [try await t.placeholderPhoto(uploader: shop.owner.user.id)], status: "active", extra: ""))
            #expect(another.status == .created, "\(another.body.string)")
            try await t.tick(at: Self.start.addingTimeInterval(54 * 3600))
            try await t.deliverMail()
            #expect(try await t.inbox(shopper, kind: .newFromFollowedStores).count == 2)
            #expect(t.mailer.mails(to: email).count == mailsBefore)
        }
    }
}
