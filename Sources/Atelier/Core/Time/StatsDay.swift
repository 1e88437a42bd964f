import Foundation

/// The day a store statistic counts under: the UTC calendar day.
enum StatsDay {
    static func string(_ date: Date) -> String {
        LocalDay(date, in: LocalDay.utc).description
    }
}
