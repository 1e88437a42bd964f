import Foundation

/// Sensible defaults instead of tagging by hand: a garment type from catalog words, or from the
/// shape of a cut-out. The owner's own choice always replaces a guess (`typeGuessed`).
enum GarmentTypeGuess {
    private static let words: [(ClosetItem.Kind, [String])] = [
        (.tShirt, ["t-shirt", "tshirt", "tee"]), (.shirt, ["shirt", "blouse"]), (.sweater, ["sweater", "jumper", "cardigan", "knit", "hoodie"]),
        (.coat, ["coat", "parka", "trench"]), (.jacket, ["jacket", "blazer"]), (.jeans, ["jeans", "denim"]),
        (.shorts, ["shorts"]), (.skirt, ["skirt"]), (.dress, ["dress", "gown"]), (.pants, ["pants", "trousers", "chinos", "leggings"]),
        (.shoes, ["shoes", "shoe", "sneakers", "trainers", "boots", "boot", "sandals", "heels", "loafers"]),
        (.bag, ["bag", "tote", "backpack", "purse"]), (.accessory, ["scarf", "hat", "belt", "cap", "gloves", "jewellery", "jewelry"]),
        (.top, ["top", "tank", "camisole"]),
    ]

    static func from(text: String) -> ClosetItem.Kind {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
        // Category names are plural ("Tops", "T-shirts").
        let tokens = words + words.filter { $0.hasSuffix("s") }.map { String($0.dropLast()) }
        for (kind, names) in Self.words where names.contains(where: tokens.contains) { return kind }
        return .top
    }

    /// From the cut-out's proportions: long and narrow reads as trousers, low and wide as shoes.
    static func from(width: Int, height: Int) -> ClosetItem.Kind {
        guard width > 0 else { return .top }
        let ratio = Double(height) / Double(width)
        if ratio >= 1.6 { return .pants }
        if ratio <= 0.55 { return .shoes }
        return .top
    }
}

extension ColourName {
    /// A catalog product's colours in the closet's palette (the catalog has gold, silver, multi too).
    static func fromCatalog(_ names: [String]) -> [ColourName] {
        var result: [ColourName] = []
        for name in names {
            let mapped: ColourName? = switch name.lowercased() {
            case "gold": .yellow
            case "silver": .grey
            default: ColourName(rawValue: name.lowercased())
            }
            if let mapped, !result.contains(mapped) { result.append(mapped) }
        }
        return result
    }
}
