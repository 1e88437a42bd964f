import Foundation

/// Server-drawn bar charts (SVG, no script) of the daily store stats.
enum StatsChart {
    struct Bar: Encodable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        var label: String
    }

    struct Chart: Encodable {
        var key: String
        var title: String
        var total: Int
        var max: Int
        var bars: [Bar]
        var firstDay: String
        var lastDay: String
        var summary: String
    }

    static let width = 360.0
    static let height = 120.0

    /// `currency`: what the store sells in, for the sales chart (whole units).
    static func charts(_ days: [StoreStatsService.Day], currency: String = "SEK") -> [Chart] {
        let scale = Int(pow(10, Double(MoneyText.digits(currency))))
        return [
            chart("sales", "Sales, \(currency) (orders handed over)", days.map { ($0.day, $0.salesMinor / scale) }),
            chart("orders", "Orders handed over", days.map { ($0.day, $0.orders) }),
            chart("shopClicks", "Clicks to your online shop", days.map { ($0.day, $0.shopClicks) }),
            chart("follows", "New followers", days.map { ($0.day, $0.follows) }),
            chart("likes", "Likes", days.map { ($0.day, $0.likes) }),
            chart("views", "Product views", days.map { ($0.day, $0.views) }),
            chart("shareVisits", "Visits from shared links", days.map { ($0.day, $0.shareVisits) }),
        ]
    }

    static func chart(_ key: String, _ title: String, _ points: [(String, Int)]) -> Chart {
        let peak = max(1, points.map(\.1).max() ?? 0)
        let slot = width / Double(max(1, points.count))
        let bars = points.enumerated().map { index, point in
            let h = Double(point.1) / Double(peak) * (height - 4)
            return Bar(x: Double(index) * slot, y: height - h, width: max(1, slot - 1), height: h, label: "\(point.0): \(point.1)")
        }
        let total = points.map(\.1).reduce(0, +)
        return Chart(
            key: key, title: title, total: total, max: points.map(\.1).max() ?? 0, bars: bars,
            firstDay: points.first?.0 ?? "", lastDay: points.last?.0 ?? "",
            summary: "\(title): \(total) in the last \(points.count) days, at most \(points.map(\.1).max() ?? 0) on one day.")
    }
}
