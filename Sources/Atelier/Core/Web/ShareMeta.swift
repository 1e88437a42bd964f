import Foundation

/// What a shared link shows before anyone opens it (discovery.md): Open Graph and Twitter card
/// tags, and Apple's smart app banner, drawn into the page head by `core/layout`.
struct ShareMeta: Encodable, Sendable {
    struct Image: Encodable, Sendable {
        var url: String
        var width: Int
        var height: Int
        var alt: String
    }

    var type: String
    var title: String
    var description: String?
    var url: String
    var image: Image?
    /// Product pages: the price as a plain decimal ("499.00") with its ISO 4217 code.
    var priceAmount: String?
    var priceCurrency: String?
    /// The App Store id for the smart app banner, when the app is configured.
    var appleAppStoreID: String?

    /// Previews cut descriptions at about 200 characters; cut at a word.
    static func excerpt(_ text: String, limit: Int = 200) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard flat.count > limit else { return flat }
        let cut = flat.prefix(limit)
        return (cut.lastIndex(of: " ").map { String(cut[..<$0]) } ?? String(cut)) + "…"
    }
}
