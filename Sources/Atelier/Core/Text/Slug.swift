import Foundation

/// URL- and handle-friendly words: "Café Åsa & Co" -> "cafe-asa-co" (with "-"); with
/// `foldingToASCII: false` letters keep their accents and scripts ("ziua-lui-ștefan").
enum Slug {
    static func make(_ text: String, separator: Character = "-", foldingToASCII: Bool = true) -> String {
        let folded = foldingToASCII
            ? text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en")).lowercased()
            : text.precomposedStringWithCanonicalMapping.lowercased()
        var result = ""
        for character in folded {
            if character.isASCII || !foldingToASCII, character.isLetter || character.isNumber {
                result.append(character)
            } else if !result.isEmpty, result.last != separator {
                result.append(separator)
            }
        }
        while result.last == separator { result.removeLast() }
        return result
    }
}
