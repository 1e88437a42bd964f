import Foundation
import Testing

@testable import Atelier

@Suite("Core: dates written as internet date-times")
struct InternetDateTextTests {
    private let formatter = ISO8601DateFormatter()

    @Test("a date is written as ISO8601DateFormatter writes it, across the years 1583 to 9999, fractions of seconds included")
    func asTheFormatterWrites() {
        let first = -12_212_553_600.0, end = 253_402_300_800.0
        var seconds: [Double] = [
            0, -1, 1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 951_868_800,  // 2000-02-29
            -2_203_891_200, 4_107_456_000, 4_107_542_399, 1_798_761_599,  // 1900-03-01, 2100-02-28/03-01, 2026-12-31
            first, first + 0.5, end - 1, end - 0.001, 1_795_852_205.999, -0.5, -1.25,
            // The formatter rounds to the millisecond first.
            1_795_852_205.99949, 1_795_852_205.9995, -1_795_852_204.0005, -1_795_852_204.00051, 4_000_000_000.9995, -0.0004, -0.0005, -0.0006,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 { seconds.append(Double(Int.random(in: Int(first)..<Int(end), using: &generator))) }
        for _ in 0..<3_000 { seconds.append(Double.random(in: first..<end, using: &generator)) }
        for _ in 0..<3_000 { seconds.append(Double.random(in: 0..<4_102_444_800, using: &generator)) }  // 1970–2100
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(InternetDateText.text(date) == formatter.string(from: date), "\(value)")
        }
        #expect(InternetDateText.text(Date(timeIntervalSince1970: 1_795_852_205)) == "2026-11-28T07:50:05Z")
    }

    @Test("outside the years 1583 to 9999 (the Julian calendar before) it writes nothing, and answers fall back to the formatter")
    func outsideTheYears() throws {
        for value in [-12_212_553_600.001, -12_212_553_601, -62_135_596_800, -30_000_000_000, 253_402_300_800, 1e15, -1e15] {
            let date = Date(timeIntervalSince1970: value)
            #expect(InternetDateText.text(date) == nil, "\(value)")
            #expect(try LenientISO8601Dates().encode(date) == formatter.string(from: date))
        }
        let now = Date()
        #expect(try LenientISO8601Dates().encode(now) == formatter.string(from: now))
    }
}
