import Fluent
import Foundation

/// A store's commerce settings: read by its staff, changed by its owners.
struct CommerceSettingsService {
    let db: any Database
    let core: CoreServices
    let catalogChanges: CatalogChanges

    struct Draft: Sendable {
        var orderingEnabled: Bool
        var reserveEnabled: Bool
        var reserveHours: Int
        var reserveMaxItems: Int
        var pickupEnabled: Bool
        var pickupPreparationMinutes: Int
        var deliveryEnabled: Bool
        var deliveryRadiusKm: Double
        var deliveryFeeMinor: Int
        var deliveryFreeOverMinor: Int?
        var payAtStore: Bool
        var payByCard: Bool
        var payByInvoice: Bool
        var minimumOrderMinor: Int
        var currencies: [String]
        var legalAge: Int?
        var restrictedCategoryIDs: [String]
        var requireIDCheck: Bool
        var signInToBrowse: Bool
        /// As typed; empty: the store delivers within `deliveryRadiusKm`.
        var deliveryPostcodes: [String] = []
        var pricesIncludeVAT = true
        /// Percent, e.g. 25 or 12.5.
        var vatRatePercent: Double = 0
        var categoryVATRates: [(categoryID: String, percent: Double)] = []
    }

    static let maxPostcodes = 5000

    /// The currency the store's money settings are shown in: that of its newest product (SEK without one).
    static func currency(of store: Store, on db: any Database) async throws -> String {
        try await Product.query(on: db).filter(\.$store.$id == store.requireID()).sort(\.$id, .descending).first()?.currency ?? "SEK"
    }

    /// A percentage as basis points, or nil when it is not one from 0 to 100 with at most two decimals.
    static func basisPoints(_ percent: Double) -> Int? {
        guard percent.isFinite, (0...100).contains(percent) else { return nil }
        let bp = (percent * 100).rounded()
        return abs(bp - percent * 100) < 1e-6 ? Int(bp) : nil
    }

    /// The store's settings, or the defaults (ordering off) when it never saved any.
    func settings(of store: Store) async throws -> CommerceSettings {
        let storeID = try store.requireID()
        return try await CommerceSettings.query(on: db).filter(\.$storeID == storeID).first()
            ?? .defaults(storeID: storeID, now: core.clock.now())
    }

    func update(_ store: Store, with draft: Draft) async throws -> CommerceSettings {
        var errors = FieldErrors()
        if !(1...336).contains(draft.reserveHours) { errors.add("reserveHours", "must be 1 to 336 hours") }
        if !(1...50).contains(draft.reserveMaxItems) { errors.add("reserveMaxItems", "must be 1 to 50") }
        if !(0...10080).contains(draft.pickupPreparationMinutes) { errors.add("pickupPreparationMinutes", "must be 0 to 10080") }
        if !(draft.deliveryRadiusKm.isFinite && (0...500).contains(draft.deliveryRadiusKm)) { errors.add("deliveryRadiusKm", "must be 0 to 500") }
        if draft.deliveryFeeMinor < 0 { errors.add("deliveryFee", "cannot be negative") }
        if let freeOver = draft.deliveryFreeOverMinor, freeOver < 0 { errors.add("deliveryFreeOver", "cannot be negative") }
        if draft.minimumOrderMinor < 0 { errors.add("minimumOrder", "cannot be negative") }
        for (index, currency) in draft.currencies.enumerated() where CatalogVocabulary.currencies[currency.uppercased()] == nil {
            errors.add(index == 0 ? "deliveryFee.currency" : "minimumOrder.currency", "is not a currency this server knows")
        }
        if let age = draft.legalAge, !(1...99).contains(age) { errors.add("legalAge", "must be 1 to 99") }
        if draft.orderingEnabled, !draft.reserveEnabled, !draft.pickupEnabled, !draft.deliveryEnabled {
            errors.add("orderingEnabled", "needs at least one of reserve, pickup and delivery")
        }
        var categories: [UUID] = []
        for (index, raw) in draft.restrictedCategoryIDs.enumerated() {
            guard let id = UUID(uuidString: raw) else { errors.add("restrictedCategoryIds[\(index)]", "is not a category id"); continue }
            categories.append(id)
        }
        if !categories.isEmpty, draft.legalAge == nil { errors.add("legalAge", "is needed when categories are restricted") }
        var postcodes: [String] = []
        for (index, raw) in draft.deliveryPostcodes.enumerated() {
            guard let code = Postcode.normalized(raw) else { errors.add("deliveryPostcodes[\(index)]", "is not a postcode"); continue }
            if !postcodes.contains(code) { postcodes.append(code) }
        }
        if postcodes.count > Self.maxPostcodes { errors.add("deliveryPostcodes", "may list at most \(Self.maxPostcodes) postcodes") }
        let vatRate = Self.basisPoints(draft.vatRatePercent)
        if vatRate == nil { errors.add("vatRate", "must be a percentage from 0 to 100 with at most two decimals") }
        var categoryRates: [(UUID, Int)] = []
        for (index, entry) in draft.categoryVATRates.enumerated() {
            guard let id = UUID(uuidString: entry.categoryID) else { errors.add("categoryVatRates[\(index)].categoryId", "is not a category id"); continue }
            guard let bp = Self.basisPoints(entry.percent) else {
                errors.add("categoryVatRates[\(index)].rate", "must be a percentage from 0 to 100 with at most two decimals"); continue
            }
            if categoryRates.contains(where: { $0.0 == id }) { errors.add("categoryVatRates[\(index)].categoryId", "is listed twice"); continue }
            categoryRates.append((id, bp))
        }
        try errors.throwIfAny()
        let known = try await Category.query(on: db).filter(\.$id ~~ categories).count()
        if known != Set(categories).count { throw Problem.invalid("restrictedCategoryIds", "names a category that does not exist") }
        let rated = categoryRates.map(\.0)
        if try await Category.query(on: db).filter(\.$id ~~ rated).count() != rated.count {
            throw Problem.invalid("categoryVatRates", "names a category that does not exist")
        }

        let now = core.clock.now()
        let row = try await settings(of: store)
        row.orderingEnabled = draft.orderingEnabled
        row.reserveEnabled = draft.reserveEnabled
        row.reserveHours = draft.reserveHours
        row.reserveMaxItems = draft.reserveMaxItems
        row.pickupEnabled = draft.pickupEnabled
        row.pickupPreparationMinutes = draft.pickupPreparationMinutes
        row.deliveryEnabled = draft.deliveryEnabled
        row.deliveryRadiusKm = draft.deliveryRadiusKm
        row.deliveryFeeMinor = draft.deliveryFeeMinor
        row.deliveryFreeOverMinor = draft.deliveryFreeOverMinor
        row.payAtStore = draft.payAtStore
        row.payByCard = draft.payByCard
        row.payByInvoice = draft.payByInvoice
        row.minimumOrderMinor = draft.minimumOrderMinor
        row.legalAge = draft.legalAge
        row.restrictedCategoryList = categories.map { $0.idString }.joined(separator: ",")
        row.requireIDCheck = draft.requireIDCheck
        row.signInToBrowse = draft.signInToBrowse
        row.deliveryPostcodeList = postcodes.joined(separator: ",")
        row.pricesIncludeVAT = draft.pricesIncludeVAT
        row.vatRateBasisPoints = vatRate ?? 0
        row.categoryVATRateList = categoryRates.map { "\($0.0.idString):\($0.1)" }.joined(separator: ",")
        row.updatedAt = now
        let storeID = try store.requireID()
        try await core.writeTransaction(on: db) { tx in
            try await row.save(on: tx)
            try await Store.query(on: tx).filter(\.$id == storeID).set(\.$membersOnly, to: draft.signInToBrowse).update()
        }
        // Signed-out answers kept in the caches may list the store's products.
        await catalogChanges.announce()
        return row
    }
}
