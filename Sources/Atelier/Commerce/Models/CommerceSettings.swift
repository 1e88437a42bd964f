import Fluent
import Foundation

/// How a store sells (commerce.md, "Store settings"). A store without a row does not take orders.
final class CommerceSettings: Model, @unchecked Sendable {
    static let schema = "store_commerce_settings"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "store_id") var storeID: UUID
    @Field(key: "ordering_enabled") var orderingEnabled: Bool
    @Field(key: "reserve_enabled") var reserveEnabled: Bool
    @Field(key: "reserve_hours") var reserveHours: Int
    @Field(key: "reserve_max_items") var reserveMaxItems: Int
    @Field(key: "pickup_enabled") var pickupEnabled: Bool
    @Field(key: "pickup_preparation_minutes") var pickupPreparationMinutes: Int
    @Field(key: "delivery_enabled") var deliveryEnabled: Bool
    @Field(key: "delivery_radius_km") var deliveryRadiusKm: Double
    @Field(key: "delivery_fee_minor") var deliveryFeeMinor: Int
    @OptionalField(key: "delivery_free_over_minor") var deliveryFreeOverMinor: Int?
    @Field(key: "pay_at_store") var payAtStore: Bool
    @Field(key: "pay_by_card") var payByCard: Bool
    @Field(key: "pay_by_invoice") var payByInvoice: Bool
    @Field(key: "minimum_order_minor") var minimumOrderMinor: Int
    @OptionalField(key: "legal_age") var legalAge: Int?
    /// Comma-separated category ids whose subtrees need `legal_age`.
    @Field(key: "restricted_category_ids") var restrictedCategoryList: String
    @Field(key: "require_id_check") var requireIDCheck: Bool
    @Field(key: "sign_in_to_browse") var signInToBrowse: Bool
    /// Comma-separated postcodes (`Postcode.normalized`) the store delivers to; empty: within the radius.
    @Field(key: "delivery_postcodes") var deliveryPostcodeList: String
    @Field(key: "prices_include_vat") var pricesIncludeVAT: Bool
    /// VAT in basis points (2500 = 25 %) for categories without a rate of their own.
    @Field(key: "vat_rate_bp") var vatRateBasisPoints: Int
    /// `id:basisPoints` pairs, comma-separated: a category's rate, for it and everything under it.
    @Field(key: "category_vat_rates") var categoryVATRateList: String
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var deliveryPostcodes: [String] { deliveryPostcodeList.split(separator: ",").map(String.init) }

    var categoryVATRates: [UUID: Int] {
        Dictionary(categoryVATRateList.split(separator: ",").compactMap { pair -> (UUID, Int)? in
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let bp = Int(parts[1]) else { return nil }
            return (id, bp)
        }, uniquingKeysWith: { first, _ in first })
    }

    var restrictedCategoryIDs: [UUID] { restrictedCategoryList.split(separator: ",").compactMap { UUID(uuidString: String($0)) } }

    /// The settings a store starts from when it turns ordering on.
    static func defaults(storeID: UUID, now: Date) -> CommerceSettings {
        let s = CommerceSettings()
        s.id = storeID
        s.storeID = storeID
        s.orderingEnabled = false
        s.reserveEnabled = true
        s.reserveHours = 48
        s.reserveMaxItems = 5
        s.pickupEnabled = true
        s.pickupPreparationMinutes = 120
        s.deliveryEnabled = false
        s.deliveryRadiusKm = 10
        s.deliveryFeeMinor = 0
        s.deliveryFreeOverMinor = nil
        s.payAtStore = true
        s.payByCard = false
        s.payByInvoice = false
        s.minimumOrderMinor = 0
        s.legalAge = nil
        s.restrictedCategoryList = ""
        s.requireIDCheck = false
        s.signInToBrowse = false
        s.deliveryPostcodeList = ""
        s.pricesIncludeVAT = true
        s.vatRateBasisPoints = 0
        s.categoryVATRateList = ""
        s.updatedAt = now
        return s
    }
}
