import Fluent
import Vapor

/// `/portal/stores/{id}/selling`: how the store sells — ordering, reservations, pickup, delivery (a radius
/// or a list of postcodes), payments, sign-in-to-browse and VAT (with a rate per category of what it
/// sells). Staff see it; owners change it. The same `CommerceSettingsService.update` as the API.
enum PortalSellingPage {
    struct CategoryRate: Encodable {
        var id: String
        var name: String
        var rate: String
    }

    struct Context: WebPageContext {
        var page: PageContext
        var store: PortalRoutes.StoreNav
        var s: Values
        var categories: [CategoryRate]
    }

    /// The form's values as text, the way the fields show them.
    struct Values: Encodable {
        var orderingEnabled, reserveEnabled, pickupEnabled, deliveryEnabled, payAtStore, payByCard, payByInvoice: Bool
        var signInToBrowse, requireIdCheck, pricesIncludeVat: Bool
        var reserveHours, reserveMaxItems, pickupPreparationMinutes, deliveryRadiusKm: String
        var deliveryFee, deliveryFreeOver, minimumOrder, legalAge, vatRate, deliveryPostcodes, currency: String
    }

    static func register(_ store: any RoutesBuilder) {
        store.get("selling", use: page)
        store.post("selling", use: save)
    }

    static func page(_ req: Request) async throws -> View {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "selling")
        let s = try await CommerceSettingsService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).settings(of: store)
        let currency = try await CommerceSettingsService.currency(of: store, on: req.db)
        let rates = s.categoryVATRates
        let percent = VATBreakdown.percentText
        let chips = try await PublicCatalogPages.storeCategories(store.requireID(), req: req, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
        let values = Values(
            orderingEnabled: s.orderingEnabled, reserveEnabled: s.reserveEnabled, pickupEnabled: s.pickupEnabled,
            deliveryEnabled: s.deliveryEnabled, payAtStore: s.payAtStore, payByCard: s.payByCard, payByInvoice: s.payByInvoice,
            signInToBrowse: s.signInToBrowse, requireIdCheck: s.requireIDCheck, pricesIncludeVat: s.pricesIncludeVAT,
            reserveHours: String(s.reserveHours), reserveMaxItems: String(s.reserveMaxItems),
            pickupPreparationMinutes: String(s.pickupPreparationMinutes), deliveryRadiusKm: String(format: "%g", s.deliveryRadiusKm),
            deliveryFee: MoneyText.plain(s.deliveryFeeMinor, currency), deliveryFreeOver: s.deliveryFreeOverMinor.map { MoneyText.plain($0, currency) } ?? "",
            minimumOrder: MoneyText.plain(s.minimumOrderMinor, currency), legalAge: s.legalAge.map(String.init) ?? "",
            vatRate: percent(s.vatRateBasisPoints), deliveryPostcodes: s.deliveryPostcodes.joined(separator: ", "), currency: currency)
        let categories = chips.map { chip in
            CategoryRate(id: chip.id, name: chip.name, rate: UUID(uuidString: chip.id).flatMap { rates[$0] }.map(percent) ?? "")
        }
        return try await req.renderPage("commerce/portal-selling", Context(
            page: PageContext(req, title: "Selling · \(store.name)"), store: nav, s: values, categories: categories))
    }

    static func save(_ req: Request) async throws -> Response {
        let (store, nav) = try await PortalRoutes.managedStore(req, section: "selling", ownerOnly: true)
        return try await req.formAction(redirectTo: "/portal/stores/\(nav.id)/selling") {
            let current = try await CommerceSettingsService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).settings(of: store)
            let currency = try await CommerceSettingsService.currency(of: store, on: req.db)
            let digits = MoneyText.digits(currency)
            var errors = FieldErrors()
            func text(_ name: String) -> String { ((try? req.content.get(String.self, at: name)) ?? "").trimmingCharacters(in: .whitespaces) }
            func flag(_ name: String) -> Bool { text(name) == "on" || text(name) == "true" }
            func int(_ name: String, _ fallback: Int) -> Int {
                let raw = text(name)
                guard !raw.isEmpty else { return fallback }
                guard let value = Int(raw) else { errors.add(name, "must be a whole number"); return fallback }
                return value
            }
            func money(_ name: String) -> Int? {
                let raw = text(name)
                guard !raw.isEmpty else { return nil }
                guard let minor = MoneyText.minorUnits(raw.replacingOccurrences(of: ",", with: "."), digits: digits) else {
                    errors.add(name, "must be an amount like 49 or 49.50"); return nil
                }
                return minor
            }
            func percent(_ name: String) -> Double? {
                let raw = text(name).replacingOccurrences(of: ",", with: ".").replacingOccurrences(of: "%", with: "")
                guard !raw.isEmpty else { return nil }
                guard let value = Double(raw.trimmingCharacters(in: .whitespaces)) else { errors.add(name, "must be a percentage"); return nil }
                return value
            }
            let radius = Double(text("deliveryRadiusKm").replacingOccurrences(of: ",", with: ".")) ?? current.deliveryRadiusKm
            var categoryRates: [(categoryID: String, percent: Double)] = []
            for chip in try await PublicCatalogPages.storeCategories(
                store.requireID(), req: req, media: MediaService(db: req.db, core: req.core, mediaLibrary: req.atelier.media))
            {
                if let rate = percent("rate-\(chip.id)") { categoryRates.append((chip.id, rate)) }
            }
            let draft = CommerceSettingsService.Draft(
                orderingEnabled: flag("orderingEnabled"), reserveEnabled: flag("reserveEnabled"), reserveHours: int("reserveHours", current.reserveHours),
                reserveMaxItems: int("reserveMaxItems", current.reserveMaxItems), pickupEnabled: flag("pickupEnabled"),
                pickupPreparationMinutes: int("pickupPreparationMinutes", current.pickupPreparationMinutes), deliveryEnabled: flag("deliveryEnabled"),
                deliveryRadiusKm: radius, deliveryFeeMinor: money("deliveryFee") ?? 0, deliveryFreeOverMinor: money("deliveryFreeOver"),
                payAtStore: flag("payAtStore"), payByCard: flag("payByCard"), payByInvoice: flag("payByInvoice"),
                minimumOrderMinor: money("minimumOrder") ?? 0, currencies: [currency, currency],
                legalAge: text("legalAge").isEmpty ? nil : int("legalAge", 18),
                restrictedCategoryIDs: current.restrictedCategoryIDs.map(\.idString), requireIDCheck: flag("requireIdCheck"),
                signInToBrowse: flag("signInToBrowse"),
                deliveryPostcodes: text("deliveryPostcodes").split(whereSeparator: { $0 == "," || $0 == "\n" || $0 == ";" })
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty },
                pricesIncludeVAT: flag("pricesIncludeVat"), vatRatePercent: percent("vatRate") ?? 0, categoryVATRates: categoryRates)
            try errors.throwIfAny()
            _ = try await CommerceSettingsService(db: req.db, core: req.core, catalogChanges: req.atelier.catalogChanges).update(store, with: draft)
            return "Saved: how \(store.name) sells."
        }
    }
}
