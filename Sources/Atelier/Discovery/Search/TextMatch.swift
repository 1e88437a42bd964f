import Foundation

/// Matching names as the user types: every typed word must begin a word of the name, case and
/// accents aside. Names that begin with the whole typed text rank first, then shorter names.
struct TextMatch {
    let tokens: [String]
    private let folded: String

    init(_ text: String) {
        tokens = ProductSearchQuery(text: text).tokens
        folded = Self.fold(text).trimmingCharacters(in: .whitespaces)
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// A score (lower is better) when `name` matches, nil when it does not.
    func score(_ name: String) -> Int? {
        let name = Self.fold(name)
        let words = name.unicodeScalars.split { !CharacterSet.alphanumerics.contains($0) }.map { String(String.UnicodeScalarView($0)) }
        guard !tokens.isEmpty, tokens.allSatisfy({ token in words.contains { $0.hasPrefix(token) } }) else { return nil }
        return (name.hasPrefix(folded) ? 0 : 1000) + name.count
    }

    /// The matching items, best first.
    func best<T>(_ items: [T], limit: Int, name: (T) -> String) -> [T] {
        items.compactMap { item in score(name(item)).map { (item, $0) } }
            .sorted { $0.1 < $1.1 }.prefix(limit).map(\.0)
    }
}
