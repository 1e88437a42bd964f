import Fluent
import Foundation

/// A person's measurements and shopping preferences: the mannequin is drawn from them, and
/// recommendations and size advice read them. Stored metric; `units` is how the person reads them.
final class SizeProfile: Model, @unchecked Sendable {
    static let schema = "size_profiles"

    @ID(custom: "id", generatedBy: .user) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @OptionalField(key: "height_cm") var heightCm: Double?
    @OptionalField(key: "chest_cm") var chestCm: Double?
    @OptionalField(key: "waist_cm") var waistCm: Double?
    @OptionalField(key: "hips_cm") var hipsCm: Double?
    @OptionalField(key: "inseam_cm") var inseamCm: Double?
    @OptionalField(key: "shoe_size_eu") var shoeSizeEU: Double?
    @Field(key: "units") var units: String
    /// Garment type → size, e.g. {"jeans":"30/32","t-shirt":"M"}, as JSON.
    @Field(key: "preferred_sizes") var preferredSizesJSON: String
    @Field(key: "styles") var stylesList: String
    @Field(key: "colours") var coloursList: String
    @Field(key: "brand_ids") var brandIDsList: String
    @OptionalField(key: "price_min_minor") var priceMinMinor: Int?
    @OptionalField(key: "price_max_minor") var priceMaxMinor: Int?
    @OptionalField(key: "currency") var currency: String?
    /// The discover feed and search default to the preferences (ShoppingPreferences) unless a
    /// request says otherwise.
    @Field(key: "default_to_preferences") var defaultToPreferences: Bool
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var preferredSizes: [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(preferredSizesJSON.utf8))) ?? [:]
    }
    var styles: [String] { stylesList.split(separator: ",").map(String.init) }
    var colours: [ColourName] { coloursList.split(separator: ",").compactMap { ColourName(rawValue: String($0)) } }
    var brandIDs: [UUID] { brandIDsList.split(separator: ",").compactMap { UUID(uuidString: String($0)) } }
}
