import Fluent
import Foundation

/// A person's shopping preferences (size profile: brands, colours, styles, sizes, price range) as
/// product filters: "the discover feed and search can default to them" (wardrobe.md). Only filters
/// the request leaves open are filled, so a shopper who picks a brand or a price still gets it.
struct ShoppingPreferences: Sendable, Equatable {
    /// The filters a preference filled, named as the search parameters.
    enum Filter: String, Sendable, CaseIterable { case brand, color, style, size, price }

    var brandIDs: [UUID] = []
    var colors: [String] = []
    var styles: [String] = []
    var sizes: [String] = []
    var priceMin: Int?
    var priceMax: Int?
    var currency: String?

    init(profile: SizeProfile) {
        brandIDs = profile.brandIDs
        colors = Self.unique(profile.colours.flatMap(\.catalogNames))
        styles = profile.styles
        // Every size the person named, OR-ed: sizes of different garment types rarely collide
        // ("M", "30/32", "42"), and a product passes when any of them is in stock.
        var sizes = profile.preferredSizes.values.sorted()
        if let shoe = profile.shoeSizeEU { sizes.append(shoe.rounded() == shoe ? String(Int(shoe)) : String(shoe)) }
        self.sizes = Self.unique(sizes)
        priceMin = profile.priceMinMinor
        priceMax = profile.priceMaxMinor
        currency = profile.currency
    }

    /// The caller's preferences when they apply: asked for with `requested`, else when the person
    /// chose to have discovery default to them. Nil without a profile or when they do not apply.
    static func applying(for userID: UUID?, requested: Bool?, db: any Database) async throws -> ShoppingPreferences? {
        guard requested != false else { return nil }
        guard let userID else {
            if requested == true { throw Problem.unauthorized("Sign in to search with your preferences.") }
            return nil
        }
        guard let profile = try await SizeProfile.query(on: db).filter(\.$userID == userID).first() else { return nil }
        guard requested == true || profile.defaultToPreferences else { return nil }
        return ShoppingPreferences(profile: profile)
    }

    /// Fills the filters `query` leaves open; returns the ones it filled.
    func fill(_ query: inout ProductSearchQuery) -> [Filter] {
        var filled: [Filter] = []
        if query.brandIDs.isEmpty, !brandIDs.isEmpty { query.brandIDs = brandIDs; filled.append(.brand) }
        if query.colors.isEmpty, !colors.isEmpty { query.colors = colors; filled.append(.color) }
        if (query.styles ?? []).isEmpty, !styles.isEmpty { query.styles = styles; filled.append(.style) }
        if query.sizes.isEmpty, !sizes.isEmpty { query.sizes = sizes; filled.append(.size) }
        if query.priceMin == nil, query.priceMax == nil, priceMin != nil || priceMax != nil {
            (query.priceMin, query.priceMax, query.priceCurrency) = (priceMin, priceMax, currency)
            filled.append(.price)
        }
        return filled
    }

    /// The preferences alone as a query (for the discover feed).
    var query: ProductSearchQuery {
        var query = ProductSearchQuery()
        _ = fill(&query)
        return query
    }

    /// The filters the preferences hold (those the person set).
    var filters: [Filter] {
        var query = ProductSearchQuery()
        return fill(&query)
    }

    /// The filters in words: "colours, sizes (in stock) and price range".
    static func describe(_ filters: [Filter]) -> String {
        let words = filters.map { filter in
            switch filter {
            case .brand: "brands"
            case .color: "colours"
            case .style: "styles"
            case .size: "sizes (in stock)"
            case .price: "price range"
            }
        }
        return words.count > 1 ? words.dropLast().joined(separator: ", ") + " and " + words.last! : words.first ?? ""
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension ColourName {
    /// The catalog colours a product in this palette colour is tagged with (the catalog's palette
    /// has no light blue, teal, olive or burgundy).
    var catalogNames: [String] {
        switch self {
        case .lightBlue: ["blue"]
        case .teal: ["blue", "green"]
        case .olive: ["green"]
        case .burgundy: ["red"]
        case .grey: ["grey", "silver"]
        case .yellow: ["yellow", "gold"]
        default: [rawValue]
        }
    }
}
