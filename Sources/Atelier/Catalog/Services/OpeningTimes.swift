import Foundation

/// Whether a store is open at a moment, from its weekly hours in its own time zone. Hours that
/// close at or before they open run past midnight ("22:00–02:00" on Friday covers early Saturday).
enum OpeningTimes {
    static func isOpen(_ hours: [OpeningHours], timeZone identifier: String, at date: Date) -> Bool {
        guard let zone = TimeZone(identifier: identifier) else { return false }
        let parts = calendar(zone).dateComponents([.weekday, .hour, .minute], from: date)
        let today = weekday(parts)
        let yesterday = (today + 5) % 7 + 1
        let now = "\((parts.hour ?? 0).zeroPadded(2)):\((parts.minute ?? 0).zeroPadded(2))"
        return hours.contains { period in
            let overnight = period.closes <= period.opens
            if period.weekday == today { return now >= period.opens && (overnight || now < period.closes) }
            if period.weekday == yesterday, overnight { return now < period.closes }
            return false
        }
    }

    /// The weekday at `date` in the store's time zone, 1 = Monday … 7 = Sunday (as opening hours count).
    static func weekday(of date: Date, timeZone identifier: String) -> Int {
        weekday(calendar(TimeZone(identifier: identifier) ?? .gmt).dateComponents([.weekday], from: date))
    }

    private static func weekday(_ parts: DateComponents) -> Int {
        // Calendar: 1 = Sunday.
        ((parts.weekday ?? 1) + 5) % 7 + 1
    }

    private static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
