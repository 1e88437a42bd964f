import Foundation

/// What a product search asks for (discovery.md, Search): free text, filters and a sort. Several
/// values of one filter are OR-ed, different filters AND-ed. Codable: a saved search stores one.
struct ProductSearchQuery: Codable, Sendable, Equatable {
    enum Sort: String, Codable, Sendable, CaseIterable {
        case relevance, newest
        case priceAsc = "price_asc"
        case priceDesc = "price_desc"
        case mostLiked = "most_liked"
        /// By average stars, pulled towards 3 for products with few reviews (two imaginary 3-star
        /// reviews each), so one 5-star review does not outrank two hundred at 4.8.
        case topRated = "top_rated"
    }

    struct Near: Codable, Sendable, Equatable {
        var lat: Double
        var lng: Double
        var radiusKm: Double
    }

    static let maxValuesPerFilter = 20
    static let maxTextLength = 200
    static let maxTokens = 8
    static let radiusRange = 0.1...200.0

    var text: String?
    var categoryIDs: [UUID] = []
    var storeIDs: [UUID] = []
    var brandIDs: [UUID] = []
    var colors: [String] = []
    var sizes: [String] = []
    /// women, men, unisex; women or men also let unisex products in.
    var genders: [String] = []
    /// Minor units, inclusive.
    var priceMin: Int?
    var priceMax: Int?
    var onSale = false
    var near: Near?
    var sort: Sort?
    /// Catalog styles (casual, formal, …). Optional so that saved searches stored before styles
    /// were a filter still decode; empty lists are normalised to nil.
    var styles: [String]?
    /// The currency `priceMin` and `priceMax` are in; products priced in another currency are not
    /// held to them. Nil (every search a person types) compares every product's price.
    var priceCurrency: String?

    /// The words of the text, case and accents folded, for prefix matching ("blu shi" finds
    /// "Blue Shirt"). Anything that is not a letter or digit separates words.
    var tokens: [String] {
        guard let text else { return [] }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let words = folded.unicodeScalars.split { !CharacterSet.alphanumerics.contains($0) }.map { String(String.UnicodeScalarView($0)) }
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }.prefix(Self.maxTokens).map { String($0.prefix(40)) }
    }

    /// Relevance needs words to rank by; without them the newest come first.
    var effectiveSort: Sort {
        let sort = sort ?? .relevance
        return sort == .relevance && tokens.isEmpty ? .newest : sort
    }

    /// Whether anything but the words and the sort narrows the results (a validated query: empty
    /// lists of styles are nil). Every field left at its default counts as no filter, so a filter
    /// added later counts without being listed here.
    var hasFilters: Bool {
        var bare = ProductSearchQuery()
        bare.text = text
        bare.sort = sort
        return self != bare
    }

    /// Checks every part and normalises the lists (trimmed, lower-cased vocabularies, no repeats);
    /// bad parts are one 422 naming each.
    func validated() throws -> ProductSearchQuery {
        var errors = FieldErrors()
        var query = self
        if let text, text.count > Self.maxTextLength { errors.add("q", "must be at most \(Self.maxTextLength) characters") }
        query.text = text?.trimmingCharacters(in: .whitespacesAndNewlines)
        if query.text?.isEmpty == true { query.text = nil }
        query.colors = Self.unique(colors.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        query.genders = Self.unique(genders.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        query.sizes = Self.unique(sizes.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        let styles = Self.unique((styles ?? []).map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        query.styles = styles.isEmpty ? nil : styles
        query.categoryIDs = Self.unique(categoryIDs)
        query.storeIDs = Self.unique(storeIDs)
        query.brandIDs = Self.unique(brandIDs)
        for (field, count) in [("categoryId", query.categoryIDs.count), ("storeId", query.storeIDs.count), ("brandId", query.brandIDs.count),
                               ("color", query.colors.count), ("size", query.sizes.count), ("gender", query.genders.count), ("style", styles.count)]
        where count > Self.maxValuesPerFilter {
            errors.add(field, "takes at most \(Self.maxValuesPerFilter) values")
        }
        if let bad = query.colors.first(where: { !CatalogVocabulary.colors.contains($0) }) {
            errors.add("color", "\(bad) is not one of \(CatalogVocabulary.colors.joined(separator: ", "))")
        }
        if let bad = styles.first(where: { !CatalogVocabulary.styles.contains($0) }) {
            errors.add("style", "\(bad.prefix(20)) is not one of \(CatalogVocabulary.styles.joined(separator: ", "))")
        }
        if let bad = query.genders.first(where: { !CatalogVocabulary.genders.contains($0) }) {
            errors.add("gender", "\(bad) is not one of women, men, unisex")
        }
        if let bad = query.sizes.first(where: { $0.count > 20 }) { errors.add("size", "\(bad.prefix(20))… is longer than 20 characters") }
        if let min = priceMin, min < 0 { errors.add("priceMin", "must not be negative") }
        if let max = priceMax, max < 0 { errors.add("priceMax", "must not be negative") }
        if let min = priceMin, let max = priceMax, min > max { errors.add("priceMax", "must not be below priceMin") }
        if let near {
            Geo.check(lat: near.lat, lng: near.lng, into: &errors)
            if !(near.radiusKm.isFinite && Self.radiusRange.contains(near.radiusKm)) {
                errors.add("radiusKm", "must be between \(Self.radiusRange.lowerBound) and \(Int(Self.radiusRange.upperBound))")
            }
        }
        try errors.throwIfAny()
        return query
    }

    /// The genders a product may have to pass the gender filter.
    var productGenders: [String] {
        Self.unique(genders.flatMap { $0 == "unisex" ? [$0] : [$0, "unisex"] })
    }

    private static func unique<T: Hashable>(_ values: [T]) -> [T] {
        var seen = Set<T>()
        return values.filter { seen.insert($0).inserted }
    }
}
