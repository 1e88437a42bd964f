import Fluent
import Foundation

/// What a person may set on a closet item; every field optional (absent = unchanged on update,
/// default on create). Validated whole: all field errors come back in one 422, nothing written.
struct ClosetItemDraft: Sendable {
    var type: String?
    var size: String??
    var colours: [String]?
    var pattern: String??
    var brandID: UUID??
    var brandName: String??
    var seasons: [String]?
    var tags: [String]?
    var notes: String?
    var priceMinor: Int??
    var currency: String??
    var purchasedOn: String??
    var favourite: Bool?

    static let maxPriceMinor = 100_000_000_00

    /// A form or JSON string for a clearable field: absent stays, empty clears, text sets.
    static func clearable(_ value: String?) -> String?? {
        guard let value else { return nil }
        return value.isEmpty ? .some(nil) : .some(value)
    }
    static let maxTags = 20

    /// Checks every field and applies the valid draft to `item`; throws a 422 listing each problem.
    func apply(to item: ClosetItem, today: LocalDay, on db: any Database) async throws {
        var errors = FieldErrors()
        if let type {
            if ClosetItem.Kind(rawValue: type) == nil {
                errors.add("type", "is not a garment type; use one of \(ClosetItem.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        let size = self.size.map { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let size = size ?? nil, size.isEmpty || size.count > 20 { errors.add("size", "must be 1 to 20 characters") }
        var colourNames: [ColourName] = []
        if let colours {
            for raw in colours {
                if let name = ColourName(rawValue: raw) { if !colourNames.contains(name) { colourNames.append(name) } }
                else { errors.add("colours", "'\(raw.prefix(40))' is not a palette colour; use one of \(ColourName.allCases.map(\.rawValue).joined(separator: ", "))") }
            }
            if colours.count > 5 { errors.add("colours", "at most 5") }
        }
        if let pattern = pattern ?? nil, pattern.count > 40 { errors.add("pattern", "at most 40 characters") }
        if let name = brandName ?? nil, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 80 {
            errors.add("brandName", "must be 1 to 80 characters")
        }
        var brand: Brand?
        if let brandID = brandID ?? nil {
            brand = try await Brand.find(brandID, on: db)
            if brand == nil { errors.add("brandId", "is not a brand in the catalog") }
        }
        var seasonValues: [ClosetItem.Season] = []
        if let seasons {
            for raw in seasons {
                if let season = ClosetItem.Season(rawValue: raw) { if !seasonValues.contains(season) { seasonValues.append(season) } }
                else { errors.add("seasons", "'\(raw.prefix(40))' is not a season; use spring, summer, autumn or winter") }
            }
        }
        var tagValues: [String] = []
        if let tags {
            for raw in tags {
                let tag = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                if tag.isEmpty || tag.count > 40 || tag.contains(",") { errors.add("tags", "each tag is 1 to 40 characters, without commas") }
                else if !tagValues.contains(tag) { tagValues.append(tag) }
            }
            if tagValues.count > Self.maxTags { errors.add("tags", "at most \(Self.maxTags)") }
        }
        if let notes, notes.count > 2000 { errors.add("notes", "at most 2000 characters") }
        if let price = priceMinor ?? nil, price < 0 || price > Self.maxPriceMinor {
            errors.add("price.amount", price < 0 ? "must not be negative" : "is too large")
        }
        let currency = self.currency.map { $0?.uppercased() }
        if let code = currency ?? nil, CatalogVocabulary.currencies[code] == nil {
            errors.add("price.currency", "is not a currency we price in (\(CatalogVocabulary.currencies.keys.sorted().joined(separator: ", ")))")
        }
        let finalPrice = priceMinor ?? item.priceMinor
        let finalCurrency = (currency ?? item.currency)
        if finalPrice != nil && finalCurrency == nil { errors.add("price.currency", "is needed with a price") }
        if let raw = purchasedOn ?? nil {
            if let day = LocalDay(raw) {
                if day > today { errors.add("purchasedOn", "is in the future") }
            } else {
                errors.add("purchasedOn", "is not a date that exists (YYYY-MM-DD)")
            }
        }
        try errors.throwIfAny()

        if let type { item.type = type; item.typeGuessed = false }
        if let size { item.size = size }
        if colours != nil { item.coloursList = colourNames.map(\.rawValue).joined(separator: ","); item.coloursEdited = true }
        if let pattern { item.pattern = pattern?.trimmingCharacters(in: .whitespaces) }
        if let brandID {
            item.brandID = brandID
            if let brand { item.brandName = brand.name }
        }
        if let brandName { item.brandName = brandName?.trimmingCharacters(in: .whitespaces) }
        if seasons != nil { item.seasonsList = seasonValues.map(\.rawValue).joined(separator: ",") }
        if tags != nil { item.tagsList = tagValues.joined(separator: ",") }
        if let notes { item.notes = notes }
        if let priceMinor { item.priceMinor = priceMinor }
        if let currency { item.currency = currency }
        if let purchasedOn { item.purchasedOn = purchasedOn }
        if let favourite { item.favourite = favourite }
        item.refreshSearchText()
    }
}
