/// The fixed lists products are tagged from.
enum CatalogVocabulary {
    static let colors = ["black", "white", "grey", "beige", "brown", "red", "pink", "orange", "yellow", "green", "blue",
                         "navy", "purple", "gold", "silver", "multi"]
    static let styles = ["casual", "formal", "business", "sport", "party", "street", "vintage", "beach", "outdoor", "lounge"]
    static let genders = ["women", "men", "unisex"]
    /// The currencies a store may price in (`Currencies`).
    static var currencies: [String: Int] { Currencies.minorDigits }
    static let maxPhotos = 10
    static let maxVariants = 60
}
