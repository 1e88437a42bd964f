import Fluent
import Foundation
import Vapor

/// The commerce part of `atelier seed-demo`: the first fashion stores take orders (reserve to try
/// on, pickup, a welcome code), and a drinks wholesaler sells to the trade only: sign-in-to-browse,
/// alcohol for 18 and over, trade prices in cases, invoices, and one approved trade customer.
/// Runs once (skipped when the wholesaler exists).
struct CommerceDemoSeed {
    let app: Application
    /// The demo accounts' password (the seed command's).
    let password: String

    static let wholesalerSlug = "hamnens-dryckesgrossist"
    static let ownerEmail = "erik@demo.atelier.test"
    static let barEmail = "bar@demo.atelier.test"

    struct Drink {
        var title: String
        var category: String
        var size: String
        var priceMinor: Int
        var tradePriceMinor: Int
        var caseSize: Int
        var color: String
    }

    static let drinks: [Drink] = [
        Drink(title: "Rioja Crianza 2021", category: "Wine", size: "75 cl", priceMinor: 14_900, tradePriceMinor: 9_900, caseSize: 6, color: "red"),
        Drink(title: "Grüner Veltliner 2023", category: "Wine", size: "75 cl", priceMinor: 13_900, tradePriceMinor: 8_900, caseSize: 6, color: "beige"),
        Drink(title: "Champagne Brut NV", category: "Wine", size: "75 cl", priceMinor: 42_900, tradePriceMinor: 31_900, caseSize: 6, color: "beige"),
        Drink(title: "Gothenburg Pale Ale", category: "Beer", size: "33 cl", priceMinor: 2_900, tradePriceMinor: 1_790, caseSize: 24, color: "brown"),
        Drink(title: "Hamnens Lager", category: "Beer", size: "50 cl", priceMinor: 2_400, tradePriceMinor: 1_390, caseSize: 24, color: "beige"),
        Drink(title: "Coastal Gin", category: "Spirits", size: "70 cl", priceMinor: 44_900, tradePriceMinor: 32_900, caseSize: 6, color: "blue"),
        Drink(title: "Archipelago Aquavit", category: "Spirits", size: "70 cl", priceMinor: 38_900, tradePriceMinor: 27_500, caseSize: 6, color: "green"),
        Drink(title: "Lingonberry Soda", category: "Soft drinks", size: "33 cl", priceMinor: 1_900, tradePriceMinor: 990, caseSize: 24, color: "red"),
        Drink(title: "Elderflower Cordial", category: "Soft drinks", size: "50 cl", priceMinor: 4_900, tradePriceMinor: 3_200, caseSize: 12, color: "white"),
    ]

    func run(fashionOwner: User) async throws -> Int {
        let db = app.db
        let services = app.atelier
        guard try await Store.query(on: db).filter(\.$slug == Self.wholesalerSlug).count() == 0 else { return 0 }
        let settingsService = CommerceSettingsService(db: db, core: services.core, catalogChanges: services.catalogChanges)

        // Fashion: the first three stores take orders; the first has a welcome code.
        let fashion = try await Store.query(on: db).filter(\.$membersOnly == false).sort(\.$createdAt).limit(3).all()
        for store in fashion {
            _ = try await settingsService.update(store, with: Self.settings(orderingEnabled: true, membersOnly: false, legalAge: nil, restricted: []))
        }
        if let first = fashion.first {
            _ = try await DiscountService(db: db, core: services.core).create(
                .init(code: "WELCOME10", kind: "percentage", value: 10, minimumOrderMinor: 50_000, startsAt: nil, endsAt: nil, totalLimit: 100,
                      perCustomerLimit: 1), in: first)
        }

        // The wholesaler, its owner and its approved trade customer (a bar).
        let owner = try await demoAccount(Self.ownerEmail, name: "Erik Berg")
        let bar = try await demoAccount(Self.barEmail, name: "Bar Nova")
        let store = try await StoreService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mailOutbox: services.mailOutbox, mediaLibrary: services.media).create(.init(
            name: "Hamnens Dryckesgrossist", slug: Self.wholesalerSlug, street: "Skeppsbron 4", postalCode: "411 21", city: "Gothenburg",
            lat: 57.7034, lng: 11.9590, ownerEmail: owner.email, timeZone: "Europe/Stockholm"))
        let categories = CategoryService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media)
        let root = try await categories.create(name: "Drinks", gender: "unisex", parentID: nil)
        var leaves: [String: Category] = [:]
        for name in ["Wine", "Beer", "Spirits", "Soft drinks"] {
            leaves[name] = try await categories.create(name: name, gender: "unisex", parentID: root.id)
        }
        let restricted = ["Wine", "Beer", "Spirits"].compactMap { leaves[$0]?.id?.idString }
        _ = try await settingsService.update(store, with: Self.settings(orderingEnabled: true, membersOnly: true, legalAge: 18, restricted: restricted))

        var photos = DemoPhotos(app: app)
        let trade = TradeCustomerService(db: db, core: services.core, catalogChanges: services.catalogChanges)
        for (index, drink) in Self.drinks.enumerated() {
            let draft = ProductDraft(
                title: drink.title, description: "\(drink.size), sold to the trade in cases of \(drink.caseSize).", brandID: nil,
                categoryID: leaves[drink.category]!.id, gender: "unisex", priceMinor: drink.priceMinor, originalPriceMinor: nil, currency: "SEK",
                colors: [drink.color], colorName: "", fabric: "", styles: [],
                variants: [.init(size: drink.size, color: nil, stock: drink.caseSize * 20, sku: "HDG-\(1000 + index)")],
                photoIDs: [try await photos.photo(color: drink.color, shape: 3, uploader: owner)], status: .active)
            let product = try await ProductService(db: db, core: services.core, catalogChanges: services.catalogChanges, catalogIndexing: services.catalogIndexing, mediaLibrary: services.media).create(in: store, draft: draft, by: owner)
            _ = try await trade.setTradeTerms(of: product, tradePriceMinor: drink.tradePriceMinor, caseSize: drink.caseSize)
            if let variant = try await ProductVariant.query(on: db).filter(\.$product.$id == product.requireID()).first() {
                _ = try await VariantStockService(db: db, core: services.core).update(
                    variant, onHand: variant.stock, lowStockThreshold: drink.caseSize * 3,
                    gtin: GTIN.withCheckDigit("735000\(String(format: "%06d", 4_000 + index))"))
            }
        }
        _ = try await trade.apply(to: store, by: bar, companyName: "Bar Nova AB", vatNumber: "SE556677889901")
        _ = try await trade.decide(bar.requireID().idString, in: store, approve: true, by: owner)
        return Self.drinks.count
    }

    private func demoAccount(_ email: String, name: String) async throws -> User {
        if let user = try await User.query(on: app.db).filter(\.$email == email).first() { return user }
        let (user, _) = try await AccountService(db: app.db, core: app.core, accountParts: app.atelier.accountParts, mailOutbox: app.atelier.mailOutbox).signUp(
            .init(email: email, password: password, displayName: name, timeZone: "Europe/Stockholm"), clientAddress: "seed")
        user.homeCity = "Gothenburg"
        user.birthDate = "1985-05-01"
        user.emailVerifiedAt = app.atelier.clock.now()
        try await user.save(on: app.db)
        return user
    }

    static func settings(orderingEnabled: Bool, membersOnly: Bool, legalAge: Int?, restricted: [String]) -> CommerceSettingsService.Draft {
        .init(
            orderingEnabled: orderingEnabled, reserveEnabled: !membersOnly, reserveHours: 48, reserveMaxItems: 5, pickupEnabled: true,
            pickupPreparationMinutes: membersOnly ? 24 * 60 : 60, deliveryEnabled: membersOnly, deliveryRadiusKm: 30, deliveryFeeMinor: membersOnly ? 29_900 : 0,
            deliveryFreeOverMinor: membersOnly ? 500_000 : nil, payAtStore: !membersOnly, payByCard: false, payByInvoice: membersOnly,
            minimumOrderMinor: membersOnly ? 100_000 : 0, currencies: ["SEK", "SEK"], legalAge: legalAge, restrictedCategoryIDs: restricted,
            requireIDCheck: membersOnly, signInToBrowse: membersOnly)
    }
}
