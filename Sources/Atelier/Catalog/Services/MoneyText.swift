import Foundation

/// Money as people type and read it, in major units ("499", "499.50", "1 299,00"), to and from
/// the stored minor units of a currency.
enum MoneyText {
    static func digits(_ currency: String) -> Int { CatalogVocabulary.currencies[currency.uppercased()] ?? 2 }

    static func format(_ minor: Int, _ currency: String) -> String {
        let digits = digits(currency)
        let scale = Int(pow(10, Double(digits)))
        let whole = minor / scale
        let fraction = abs(minor % scale)
        let grouped = String(abs(whole)).reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? "\u{2009}\($0.element)" : "\($0.element)" }
            .joined().reversed()
        let major = (minor < 0 ? "-" : "") + String(grouped)
        return digits == 0 ? "\(major) \(currency)" : "\(major).\(String(format: "%0\(digits)d", fraction)) \(currency)"
    }

    /// For form fields: "499.50" (no grouping, no currency).
    static func plain(_ minor: Int, _ currency: String) -> String {
        let digits = digits(currency)
        guard digits > 0 else { return String(minor) }
        let scale = Int(pow(10, Double(digits)))
        return "\(minor < 0 ? "-" : "")\(abs(minor) / scale).\(String(format: "%0\(digits)d", abs(minor) % scale))"
    }

    /// Minor units from typed text; nil when it is not a number with at most the currency's decimals.
    static func minorUnits(_ text: String, currency: String) -> Int? {
        let cleaned = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            .replacingOccurrences(of: "\u{00A0}", with: "").replacingOccurrences(of: ",", with: ".")
        guard cleaned.range(of: #"^-?[0-9]{1,12}(\.[0-9]*)?$"#, options: .regularExpression) != nil else { return nil }
        let digits = digits(currency)
        let parts = cleaned.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard fraction.count <= digits else { return nil }
        let negative = parts[0].hasPrefix("-")
        guard let whole = Int(parts[0].replacingOccurrences(of: "-", with: "")) else { return nil }
        let padded = fraction.padding(toLength: digits, withPad: "0", startingAt: 0)
        let minor = whole * Int(pow(10, Double(digits))) + (Int(padded) ?? 0)
        return negative ? -minor : minor
    }
}
