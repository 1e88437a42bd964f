import Fluent
import Foundation
import NIOConcurrencyHelpers

/// A person's shopping preferences (brands, colours, styles, sizes, price range) as product filters:
/// "the discover feed and search can default to them" (wardrobe.md). Only filters the request leaves
/// open are filled, so a shopper who picks a brand or a price still gets it. Where they come from (the
/// wardrobe's size profile) is given through `ShoppingPreferenceSource`.
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

    init(brandIDs: [UUID], colors: [String], styles: [String], sizes: [String], priceMin: Int?, priceMax: Int?, currency: String?) {
        (self.brandIDs, self.colors, self.styles, self.sizes) = (brandIDs, colors, styles, sizes)
        (self.priceMin, self.priceMax, self.currency) = (priceMin, priceMax, currency)
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

    static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

/// Where a person's shopping preferences come from: the wardrobe's size profile, given at start-up
/// through the composition root. Without it nobody has preferences.
final class ShoppingPreferenceSource: Sendable {
    /// The person's preferences, and whether they chose to have discovery default to them; nil
    /// without a profile.
    typealias Loader = @Sendable (_ userID: UUID, _ db: any Database) async throws -> (preferences: ShoppingPreferences, byDefault: Bool)?

    private let loader = NIOLockedValueBox<Loader?>(nil)

    func use(_ loader: @escaping Loader) {
        self.loader.withLockedValue { $0 = loader }
    }

    /// The caller's preferences when they apply: asked for with `requested`, else when the person
    /// chose to have discovery default to them. Nil without a profile or when they do not apply.
    func applying(for userID: UUID?, requested: Bool?, db: any Database) async throws -> ShoppingPreferences? {
        guard requested != false else { return nil }
        guard let userID else {
            if requested == true { throw Problem.unauthorized("Sign in to search with your preferences.") }
            return nil
        }
        guard let found = try await loader.withLockedValue({ $0 })?(userID, db) else { return nil }
        guard requested == true || found.byDefault else { return nil }
        return found.preferences
    }
}
