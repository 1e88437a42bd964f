import Foundation
import OpenAPIRuntime

/// Dates in request bodies as ISO 8601 with or without fractional seconds (browsers'
/// `toISOString()` and Android send milliseconds, Apple's encoder does not); responses are written
/// without them, by `InternetDateText` (the formatter only for years it does not write).
struct LenientISO8601Dates: DateTranscoder {
    private let whole = ISO8601DateTranscoder.iso8601
    private let fractional = ISO8601DateTranscoder.iso8601WithFractionalSeconds

    func encode(_ date: Date) throws -> String { try InternetDateText.text(date) ?? whole.encode(date) }

    func decode(_ text: String) throws -> Date {
        if let date = try? whole.decode(text) { return date }
        return try fractional.decode(text)
    }
}
