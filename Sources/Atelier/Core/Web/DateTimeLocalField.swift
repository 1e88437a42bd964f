import Foundation

/// `<input type="datetime-local">` values, read and written in the viewer's time zone.
enum DateTimeLocalField {
    static func localInput(_ date: Date, zone: TimeZone) -> String {
        formatter(zone).string(from: date)
    }

    static func parse(_ raw: String?, field: String, zone: TimeZone) throws -> Date {
        guard let raw, let date = formatter(zone).date(from: raw) ?? secondsFormatter(zone).date(from: raw) else {
            throw Problem.invalid(field, "is not a date and time")
        }
        return date
    }

    private static func formatter(_ zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter
    }

    private static func secondsFormatter(_ zone: TimeZone) -> DateFormatter {
        let formatter = self.formatter(zone)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }
}
