import Foundation

/// A daily window of local time in which non-critical pushes wait (notifications.md). The window
/// may wrap midnight (22:00–07:00); its end is found on the calendar of its zone, so a window over
/// a daylight-saving change still ends at 07:00 local.
struct QuietHours: Sendable, Equatable {
    var startMinute: Int
    var endMinute: Int
    var timeZone: TimeZone

    /// The end of the window `date` falls in, or nil when it falls outside.
    func end(ifQuietAt date: Date) -> Date? {
        guard startMinute != endMinute else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let wraps = startMinute > endMinute
        let quiet = wraps ? (minute >= startMinute || minute < endMinute) : (minute >= startMinute && minute < endMinute)
        guard quiet else { return nil }
        // Before midnight in a wrapping window, the window ends tomorrow.
        let endsTomorrow = wraps && minute >= startMinute
        let today = calendar.startOfDay(for: date)
        guard let day = endsTomorrow ? calendar.date(byAdding: .day, value: 1, to: today) : today else { return nil }
        return calendar.date(bySettingHour: endMinute / 60, minute: endMinute % 60, second: 0, of: day)
    }

    /// "22:00" → 1320; nil for anything else.
    static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    static func text(_ minute: Int) -> String { "\((minute / 60).zeroPadded(2)):\((minute % 60).zeroPadded(2))" }
}
