import Foundation

/// Calendar days as people live them: "YYYY-MM-DD" in a time zone, and when the next one begins.
struct LocalDay: Sendable, Equatable, Comparable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    static let utc = TimeZone(identifier: "UTC")!

    /// The zone named by an IANA identifier, UTC when the name is unknown.
    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier) ?? utc }

    init(_ date: Date, in zone: TimeZone) {
        let c = Self.calendar(zone).dateComponents([.year, .month, .day], from: date)
        year = c.year!
        month = c.month!
        day = c.day!
    }

    /// Parses "YYYY-MM-DD"; nil for anything else, including days that do not exist.
    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let date = Self.calendar(Self.utc).date(from: DateComponents(year: year, month: month, day: day)),
            LocalDay(date, in: Self.utc) == LocalDay(year: year, month: month, day: day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    var description: String { "\(year.zeroPadded(4))-\(month.zeroPadded(2))-\(day.zeroPadded(2))" }

    /// The moment this day begins in `zone` (its midnight, or the first moment after a gap).
    func start(in zone: TimeZone) -> Date {
        Self.calendar(zone).date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The calendar day after this one.
    var next: LocalDay {
        LocalDay(Self.calendar(Self.utc).date(byAdding: .day, value: 1, to: start(in: Self.utc))!, in: Self.utc)
    }

    /// The moment the day after this one begins in `zone` (counted from the next date, not by
    /// adding 24 hours or a day to a start that a skipped midnight moved to 01:00).
    func end(in zone: TimeZone) -> Date { next.start(in: zone) }

    static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.description < rhs.description }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}

extension LocalDay {
    /// The calendar day `days` after this one (before, when negative).
    func adding(days: Int) -> LocalDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        return LocalDay(calendar.date(byAdding: .day, value: days, to: start(in: Self.utc))!, in: Self.utc)
    }

    /// "YYYY-MM" → the month's first day and the first day of the next month; nil for anything else.
    static func month(_ raw: String) -> (first: LocalDay, next: LocalDay)? {
        guard raw.count == 7, let first = LocalDay(raw + "-01") else { return nil }
        let next = first.month == 12 ? LocalDay(year: first.year + 1, month: 1, day: 1) : LocalDay(year: first.year, month: first.month + 1, day: 1)
        return (first, next)
    }
}
