import Foundation

/// URL- and handle-friendly words: "Café Åsa & Co" -> "cafe-asa-co" (with "-").
enum Slug {
    static func make(_ text: String, separator: Character = "-") -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en"))
            .lowercased()
        var result = ""
        for character in folded {
            if character.isASCII, character.isLetter || character.isNumber {
                result.append(character)
            } else if !result.isEmpty, result.last != separator {
                result.append(separator)
            }
        }
        while result.last == separator { result.removeLast() }
        return result
    }
}
