import Foundation

/// Global trade item numbers on barcodes: EAN-13, UPC-A (12 digits) and EAN-8, each ending in a
/// mod-10 check digit. UPC-A codes are stored as EAN-13 (a leading 0), so a scan of either form
/// finds the same product.
enum GTIN {
    struct Invalid: Error, Equatable {
        var message: String
    }

    static func normalise(_ raw: String) -> Result<String, Invalid> {
        let digits = raw.filter { !$0.isWhitespace && $0 != "-" }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(.init(message: "must contain only digits"))
        }
        guard [8, 12, 13].contains(digits.count) else {
            return .failure(.init(message: "must be 8 (EAN-8), 12 (UPC-A) or 13 (EAN-13) digits"))
        }
        guard checkDigitIsValid(digits) else {
            return .failure(.init(message: "has a wrong check digit: please re-type or re-scan it"))
        }
        return .success(digits.count == 12 ? "0" + digits : digits)
    }

    /// `body` (7, 11 or 12 digits) with its check digit appended.
    static func withCheckDigit(_ body: String) -> String {
        let probe = body + "0"
        let values = probe.compactMap { $0.wholeNumberValue }
        var sum = 0
        for (offset, value) in values.dropLast().reversed().enumerated() { sum += value * (offset.isMultiple(of: 2) ? 3 : 1) }
        return body + String((10 - sum % 10) % 10)
    }

    /// From the right, excluding the check digit, digits are weighted 3, 1, 3, …; the check digit
    /// brings the sum to a multiple of 10.
    static func checkDigitIsValid(_ digits: String) -> Bool {
        let values = digits.compactMap { $0.wholeNumberValue }
        guard let check = values.last else { return false }
        var sum = 0
        for (offset, value) in values.dropLast().reversed().enumerated() { sum += value * (offset.isMultiple(of: 2) ? 3 : 1) }
        return (10 - sum % 10) % 10 == check
    }
}
