import Fluent
import Foundation

/// Which size of a product fits a person: every measurement both the chart and the profile have is
/// compared; a size whose ranges hold them all fits; otherwise the one that misses by the fewest
/// centimetres. The reasons say which measurement decided.
enum SizeAdvice {
    struct Advice: Sendable, Equatable {
        var size: String
        var fits: Bool
        var reasons: [String]
    }

    static func advise(_ rows: [SizeChart.Row], profile: SizeProfile) -> Advice? {
        let measured: [(String, KeyPath<SizeChart.Row, SizeChart.Range?>, Double?)] = [
            ("chest", \.chest, profile.chestCm), ("waist", \.waist, profile.waistCm), ("hips", \.hips, profile.hipsCm),
            ("inseam", \.inseam, profile.inseamCm), ("shoe size", \.shoe, profile.shoeSizeEU),
        ]
        var best: (row: SizeChart.Row, miss: Double, compared: Int)?
        for row in rows {
            var miss = 0.0, compared = 0
            for (_, path, value) in measured {
                guard let value, let range = row[keyPath: path] else { continue }
                compared += 1
                miss += value < range.min ? range.min - value : value > range.max ? value - range.max : 0
            }
            guard compared > 0 else { continue }
            if best == nil || miss < best!.miss || (miss == best!.miss && compared > best!.compared) { best = (row, miss, compared) }
        }
        guard let best else { return nil }
        var reasons: [String] = []
        for (name, path, value) in measured {
            guard let value, let range = best.row[keyPath: path] else { continue }
            let unit = name == "shoe size" ? "" : " cm"
            let span = "\(format(range.min))–\(format(range.max))\(unit)"
            if value < range.min { reasons.append("your \(name) \(format(value))\(unit) is \(format(range.min - value))\(unit) under \(best.row.size)'s \(span)") }
            else if value > range.max { reasons.append("your \(name) \(format(value))\(unit) is \(format(value - range.max))\(unit) over \(best.row.size)'s \(span)") }
            else { reasons.append("your \(name) \(format(value))\(unit) is within \(best.row.size)'s \(span)") }
        }
        return Advice(size: best.row.size, fits: best.miss == 0, reasons: reasons)
    }

    /// For the product page: the advice as words, when the product has a chart and the shopper measurements.
    struct Note: Encodable, Sendable {
        var size: String
        var fits: Bool
        var reasons: [String]
    }

    static func note(productID: UUID, for user: User?, on db: any Database) async throws -> Note? {
        guard let userID = user?.id, let chart = try await SizeChart.query(on: db).filter(\.$productID == productID).first(),
            let profile = try await SizeProfile.query(on: db).filter(\.$userID == userID).first(),
            let advice = advise(chart.rows, profile: profile)
        else { return nil }
        return Note(size: advice.size, fits: advice.fits, reasons: advice.reasons)
    }

    static func check(_ rows: [SizeChart.Row]) throws {
        var errors = FieldErrors()
        if rows.isEmpty || rows.count > 30 { errors.add("rows", "a chart has 1 to 30 sizes") }
        if Set(rows.map { $0.size.lowercased() }).count != rows.count { errors.add("rows", "each size appears once") }
        for (index, row) in rows.enumerated() {
            if row.size.trimmingCharacters(in: .whitespaces).isEmpty || row.size.count > 20 { errors.add("rows[\(index)].size", "must be 1 to 20 characters") }
            let ranges: [(String, SizeChart.Range?, ClosedRange<Double>)] = [
                ("chest", row.chest, 30...250), ("waist", row.waist, 30...250), ("hips", row.hips, 30...250), ("inseam", row.inseam, 20...130),
                ("shoe", row.shoe, 15...55),
            ]
            if ranges.allSatisfy({ $0.1 == nil }) { errors.add("rows[\(index)]", "give at least one measurement") }
            for (name, range, allowed) in ranges {
                guard let range else { continue }
                if !range.min.isFinite || !range.max.isFinite || !allowed.contains(range.min) || !allowed.contains(range.max) || range.min > range.max {
                    errors.add("rows[\(index)].\(name)", "must be a range within \(Int(allowed.lowerBound))–\(Int(allowed.upperBound)), min not above max")
                }
            }
        }
        try errors.throwIfAny()
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}
