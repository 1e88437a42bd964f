import Fluent
import Foundation

extension ShoppingPreferences {
    /// The preferences a size profile holds.
    init(profile: SizeProfile) {
        // Every size the person named, OR-ed: sizes of different garment types rarely collide
        // ("M", "30/32", "42"), and a product passes when any of them is in stock.
        var sizes = profile.preferredSizes.values.sorted()
        if let shoe = profile.shoeSizeEU { sizes.append(shoe.rounded() == shoe ? String(Int(shoe)) : String(shoe)) }
        self.init(
            brandIDs: profile.brandIDs, colors: Self.unique(profile.colours.flatMap(\.catalogNames)), styles: profile.styles,
            sizes: Self.unique(sizes), priceMin: profile.priceMinMinor, priceMax: profile.priceMaxMinor, currency: profile.currency)
    }

    /// Discovery's preferences come from the person's size profile (the root registers this).
    static func register(in source: ShoppingPreferenceSource) {
        source.use { userID, db in
            guard let profile = try await SizeProfile.query(on: db).filter(\.$userID == userID).first() else { return nil }
            return (ShoppingPreferences(profile: profile), profile.defaultToPreferences)
        }
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
