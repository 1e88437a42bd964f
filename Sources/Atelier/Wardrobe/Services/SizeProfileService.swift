import Fluent
import Foundation

/// Reads and replaces a person's size profile, checking every measurement is one a body can have.
struct SizeProfileService {
    let db: any Database
    let core: CoreServices

    struct Input: Sendable {
        var units: String?
        var heightCm, chestCm, waistCm, hipsCm, inseamCm, shoeSizeEU: Double?
        var preferredSizes: [String: String]
        var styles: [String]
        var colours: [String]
        var brandIDs: [UUID]
        var priceMin: (amount: Int, currency: String)?
        var priceMax: (amount: Int, currency: String)?
        var defaultToPreferences = false
    }

    static let ranges: [(String, ClosedRange<Double>)] = [
        ("heightCm", 50...250), ("chestCm", 50...200), ("waistCm", 40...200), ("hipsCm", 50...200), ("inseamCm", 30...120), ("shoeSizeEu", 15...55),
    ]

    func profile(of userID: UUID) async throws -> SizeProfile? {
        try await SizeProfile.query(on: db).filter(\.$userID == userID).first()
    }

    func replace(for userID: UUID, with input: Input) async throws -> SizeProfile {
        var errors = FieldErrors()
        let units = input.units ?? "metric"
        if !["metric", "imperial"].contains(units) { errors.add("units", "must be metric or imperial") }
        let values: [Double?] = [input.heightCm, input.chestCm, input.waistCm, input.hipsCm, input.inseamCm, input.shoeSizeEU]
        for ((field, range), value) in zip(Self.ranges, values) {
            if let value, !value.isFinite || !range.contains(value) {
                errors.add(field, "must be between \(Int(range.lowerBound)) and \(Int(range.upperBound))")
            }
        }
        if input.preferredSizes.count > ClosetItem.Kind.allCases.count { errors.add("preferredSizes", "one size per garment type") }
        for (type, size) in input.preferredSizes {
            if ClosetItem.Kind(rawValue: type) == nil { errors.add("preferredSizes", "'\(type.prefix(30))' is not a garment type") }
            if size.trimmingCharacters(in: .whitespaces).isEmpty || size.count > 20 { errors.add("preferredSizes.\(type.prefix(30))", "must be 1 to 20 characters") }
        }
        for style in input.styles where !CatalogVocabulary.styles.contains(style) {
            errors.add("styles", "'\(style.prefix(30))' is not a style (\(CatalogVocabulary.styles.joined(separator: ", ")))")
        }
        for colour in input.colours where ColourName(rawValue: colour) == nil { errors.add("colours", "'\(colour.prefix(30))' is not a palette colour") }
        if !input.brandIDs.isEmpty {
            let found = try await Brand.query(on: db).filter(\.$id ~~ input.brandIDs).count()
            if found != Set(input.brandIDs).count { errors.add("brandIds", "names a brand that is not in the catalog") }
        }
        for (field, price) in [("priceMin", input.priceMin), ("priceMax", input.priceMax)] {
            guard let price else { continue }
            if price.amount < 0 { errors.add("\(field).amount", "must not be negative") }
            if CatalogVocabulary.currencies[price.currency] == nil { errors.add("\(field).currency", "is not a currency we price in") }
        }
        if let low = input.priceMin, let high = input.priceMax {
            if low.currency != high.currency { errors.add("priceMax.currency", "must be the currency of priceMin") }
            else if low.amount > high.amount { errors.add("priceMax.amount", "must not be below priceMin") }
        }
        try errors.throwIfAny()

        let profile = try await self.profile(of: userID) ?? {
            let fresh = SizeProfile()
            fresh.id = UUID()
            fresh.userID = userID
            return fresh
        }()
        profile.units = units
        (profile.heightCm, profile.chestCm, profile.waistCm, profile.hipsCm, profile.inseamCm, profile.shoeSizeEU) =
            (input.heightCm, input.chestCm, input.waistCm, input.hipsCm, input.inseamCm, input.shoeSizeEU)
        profile.preferredSizesJSON = String(decoding: try JSONEncoder().encode(input.preferredSizes.mapValues { $0.trimmingCharacters(in: .whitespaces) }), as: UTF8.self)
        profile.stylesList = input.styles.joined(separator: ",")
        profile.coloursList = input.colours.joined(separator: ",")
        profile.brandIDsList = input.brandIDs.map { $0.idString }.joined(separator: ",")
        profile.priceMinMinor = input.priceMin?.amount
        profile.priceMaxMinor = input.priceMax?.amount
        profile.currency = input.priceMin?.currency ?? input.priceMax?.currency
        profile.defaultToPreferences = input.defaultToPreferences
        profile.updatedAt = core.clock.now()
        try await core.writeTransaction(on: db) { tx in try await profile.save(on: tx) }
        return profile
    }
}
