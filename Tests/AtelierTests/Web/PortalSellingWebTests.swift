import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Web: the portal's selling settings")
struct PortalSellingWebTests {
    let forms = AccountsWebTests()
    let catalog = CatalogWebTests()

    @Test("an owner sets delivery postcodes, VAT with a category rate and invoices on the web; a bad rate changes nothing; staff only look")
    func selling() async throws {
        try await TestApp.with { t in
            let shop = try await t.shopFixture()
            let storeID = shop.storeID
            let shirts = shop.catalog.shirts.id!.idString
            let owner = try await catalog.webSignIn(t, email: shop.owner.user.email ?? "")
            let page = try await forms.openForm(t, "/portal/stores/\(storeID)/selling", cookie: owner)
            #expect(page.html.contains(#"id="selling-form""#) && page.html.contains(#"name="rate-\#(shirts)""#))
            var fields = [
                "csrfToken": page.csrf, "orderingEnabled": "on", "pickupEnabled": "on", "deliveryEnabled": "on", "payByInvoice": "on",
                "deliveryPostcodes": "413 03, 41304", "deliveryFee": "49", "minimumOrder": "0", "vatRate": "25", "rate-\(shirts)": "12",
                "reserveHours": "48", "reserveMaxItems": "5", "pickupPreparationMinutes": "60", "deliveryRadiusKm": "10",
            ]
            let saved = try await forms.post(t, "/portal/stores/\(storeID)/selling", form: fields, cookie: page.cookie)
            #expect(saved.status == .seeOther)
            let settings = try #require(try await CommerceSettings.query(on: t.app.db).filter(\.$storeID == shop.catalog.storeA.id!).first())
            #expect(settings.deliveryPostcodes == ["41303", "41304"] && settings.vatRateBasisPoints == 2500 && !settings.pricesIncludeVAT)
            #expect(settings.categoryVATRates[shop.catalog.shirts.id!] == 1200 && settings.payByInvoice && settings.deliveryFeeMinor == 4900)
            let again = try await forms.openForm(t, "/portal/stores/\(storeID)/selling", cookie: page.cookie)
            #expect(again.html.contains(">41303, 41304</textarea>") && again.html.contains(#"name="rate-\#(shirts)" value="12""#))

            fields["csrfToken"] = again.csrf
            fields["vatRate"] = "120"
            let refused = try await forms.post(t, "/portal/stores/\(storeID)/selling", form: fields, cookie: again.cookie)
            #expect(refused.status == .seeOther)
            let unchanged = try #require(try await CommerceSettings.query(on: t.app.db).filter(\.$storeID == shop.catalog.storeA.id!).first())
            #expect(unchanged.vatRateBasisPoints == 2500)

            // A staff member (not an owner) sees the page without a Save button and cannot save.
            let staff = try await t.signUp(name: "Staff")
            try await StaffService(db: t.app.db, core: t.app.core, mailOutbox: t.app.atelier.mailOutbox).addMember(
                try #require(try await User.find(UUID(uuidString: staff.user.id), on: t.app.db)), to: shop.catalog.storeA, role: .staff)
            let staffCookie = try await catalog.webSignIn(t, email: staff.user.email ?? "")
            let staffPage = try await forms.openForm(t, "/portal/stores/\(storeID)/selling", cookie: staffCookie)
            #expect(!staffPage.html.contains(#"id="save-selling""#))
            fields["csrfToken"] = staffPage.csrf
            fields["vatRate"] = "6"
            let forbidden = try await forms.post(t, "/portal/stores/\(storeID)/selling", form: fields, cookie: staffPage.cookie)
            #expect(forbidden.status == .forbidden, "\(forbidden.status)")
            #expect(try await CommerceSettings.query(on: t.app.db).filter(\.$storeID == shop.catalog.storeA.id!).first()?.vatRateBasisPoints == 2500)
        }
    }
}
