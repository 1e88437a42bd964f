import Foundation

/// A date as RFC 3339's internet date-time in UTC, to the second: `2026-11-28T07:50:05Z`, what
/// `ISO8601DateFormatter` writes with its default options. Written from the calendar arithmetic
/// directly: the formatter was 1.9 % of a list page's CPU, a date at a time (issue 19).
enum InternetDateText {
    /// The text of `date`, or nil outside the years 1583 to 9999: before 1583 the formatter counts
    /// in the Julian calendar (the Gregorian began in October 1582), and that is its business.
    static func text(_ date: Date) -> String? {
        // As the formatter: to the nearest millisecond, then the second that millisecond is in.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds >= -12_212_553_600_000, milliseconds < 253_402_300_800_000 else { return nil }  // 1583-01-01, 10000-01-01
        let total = floorDivide(Int(milliseconds), by: 1000)
        let days = floorDivide(total, by: 86_400)
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civil(daysSince1970: days)
        // The 20 bytes go straight into one string's storage; `Int.zeroPadded(_:)` would make a
        // string per field and join them, which is what this replaced on the hot path.
        return String(unsafeUninitializedCapacity: 20) { text in
            var position = 0
            func put(_ value: Int, digits: Int) {
                var rest = value
                for offset in stride(from: digits - 1, through: 0, by: -1) {
                    text[position + offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                position += digits
            }
            func put(_ character: Unicode.Scalar) {
                text[position] = UInt8(ascii: character)
                position += 1
            }
            put(year, digits: 4); put("-"); put(month, digits: 2); put("-"); put(day, digits: 2)
            put("T"); put(secondOfDay / 3600, digits: 2); put(":"); put(secondOfDay / 60 % 60, digits: 2)
            put(":"); put(secondOfDay % 60, digits: 2); put("Z")
            return position
        }
    }

    /// The proleptic Gregorian year, month and day of a day counted from 1970-01-01 (Howard
    /// Hinnant's `civil_from_days`, in 400-year eras of 146 097 days starting on a 1 March).
    private static func civil(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = daysSince1970 + 719_468  // days since 0000-03-01
        let era = floorDivide(shifted, by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value / divisor` rounded towards minus infinity (Swift's `/` rounds towards zero), so that
    /// instants before 1970 fall in the second, day and era they belong to. `divisor` is positive.
    private static func floorDivide(_ value: Int, by divisor: Int) -> Int {
        value >= 0 ? value / divisor : (value - (divisor - 1)) / divisor
    }
}
