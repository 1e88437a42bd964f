import Foundation

/// Money as people type and read it, in major units ("499", "499.50", "1 299,00"), to and from
/// the stored minor units of a currency.
enum MoneyText {
    static func digits(_ currency: String) -> Int { Currencies.minorDigits[currency.uppercased()] ?? 2 }

    static func format(_ minor: Int, _ currency: String) -> String {
        let digits = digits(currency)
        let scale = Int(pow(10, Double(digits)))
        let whole = minor / scale
        let fraction = abs(minor % scale)
        let grouped = String(abs(whole)).reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? "\u{2009}\($0.element)" : "\($0.element)" }
            .joined().reversed()
        let major = (minor < 0 ? "-" : "") + String(grouped)
        return digits == 0 ? "\(major) \(currency)" : "\(major).\(fraction.zeroPadded(digits)) \(currency)"
    }

    /// For form fields: "499.50" (no grouping, no currency).
    static func plain(_ minor: Int, _ currency: String) -> String {
        let digits = digits(currency)
        guard digits > 0 else { return String(minor) }
        let scale = Int(pow(10, Double(digits)))
        return "\(minor < 0 ? "-" : "")\(abs(minor) / scale).\((abs(minor) % scale).zeroPadded(digits))"
    }

    /// "499", "499.5" or "499.00" in major units as minor units of a currency with `digits`
    /// decimals; nil for anything else, or for more (non-zero) decimals than the currency has.
    static func minorUnits(_ text: String, digits: Int) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        func isNumber(_ part: Substring) -> Bool { !part.isEmpty && part.allSatisfy { ("0"..."9").contains($0) } }
        guard parts.count <= 2, isNumber(parts[0]), parts[0].count <= 12 else { return nil }
        var fraction = parts.count == 2 ? parts[1] : "0"
        guard isNumber(fraction) else { return nil }
        while fraction.count > digits, fraction.last == "0" { fraction = fraction.dropLast() }
        guard fraction.count <= digits else { return nil }
        let scale = (0..<digits).reduce(1) { value, _ in value * 10 }
        let padded = fraction + String(repeating: "0", count: digits - fraction.count)
        return Int(parts[0])! * scale + (Int(padded) ?? 0)
    }

    /// Minor units from what a person typed in a form: spaces and a decimal comma are allowed,
    /// and a minus sign is kept so the validator can say "must not be negative".
    static func minorUnits(_ text: String, currency: String) -> Int? {
        var cleaned = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "")
            .replacingOccurrences(of: "\u{00A0}", with: "").replacingOccurrences(of: ",", with: ".")
        let negative = cleaned.hasPrefix("-")
        if negative { cleaned.removeFirst() }
        return minorUnits(cleaned, digits: digits(currency)).map { negative ? -$0 : $0 }
    }
}
