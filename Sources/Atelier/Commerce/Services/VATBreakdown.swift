import Foundation

/// An order's VAT (issue 51): net, VAT and gross for each rate, and in all. Computed from what
/// the order keeps (each line's rate, the discount, the delivery fee and its rate), so an order, its
/// receipt and its invoice always show the same figures, and the sums agree to the öre: each
/// rate's VAT is rounded once, and net + VAT = gross for every rate and for the order.
///
/// The discount is shared among the rates in proportion to their amounts (the remainder of the
/// integer split going to the largest), as it lowers what is paid under each rate.
struct VATBreakdown: Sendable, Equatable {
    struct Rate: Sendable, Equatable {
        var basisPoints: Int
        var netMinor: Int
        var vatMinor: Int
        var grossMinor: Int
    }

    var pricesIncludeVAT: Bool
    var rates: [Rate]

    /// A rate in basis points as people write it: "25", "12.50".
    static func percentText(_ basisPoints: Int) -> String {
        basisPoints % 100 == 0 ? String(basisPoints / 100) : String(format: "%.2f", Double(basisPoints) / 100)
    }

    var netMinor: Int { rates.reduce(0) { $0 + $1.netMinor } }
    var vatMinor: Int { rates.reduce(0) { $0 + $1.vatMinor } }
    var grossMinor: Int { rates.reduce(0) { $0 + $1.grossMinor } }

    /// `lines` are (rate, line total); the delivery fee is taxed at `deliveryBasisPoints`.
    init(
        lines: [(basisPoints: Int, minor: Int)], discountMinor: Int, deliveryFeeMinor: Int, deliveryBasisPoints: Int,
        pricesIncludeVAT: Bool
    ) {
        self.pricesIncludeVAT = pricesIncludeVAT
        var amounts: [Int: Int] = [:]
        for line in lines { amounts[line.basisPoints, default: 0] += line.minor }
        let total = amounts.values.reduce(0, +)
        if discountMinor > 0, total > 0 {
            var shared = 0
            for (rate, amount) in amounts {
                let share = discountMinor * amount / total
                amounts[rate] = amount - share
                shared += share
            }
            if let largest = amounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key {
                amounts[largest, default: 0] -= discountMinor - shared
            }
        }
        if deliveryFeeMinor > 0 { amounts[deliveryBasisPoints, default: 0] += deliveryFeeMinor }
        rates = amounts.keys.sorted().map { bp in
            let base = amounts[bp]!
            if pricesIncludeVAT {
                let vat = Self.rounded(base * bp, over: 10_000 + bp)
                return Rate(basisPoints: bp, netMinor: base - vat, vatMinor: vat, grossMinor: base)
            }
            let vat = Self.rounded(base * bp, over: 10_000)
            return Rate(basisPoints: bp, netMinor: base, vatMinor: vat, grossMinor: base + vat)
        }
    }

    /// `numerator / denominator` rounded half away from zero, in integers.
    private static func rounded(_ numerator: Int, over denominator: Int) -> Int {
        numerator >= 0 ? (2 * numerator + denominator) / (2 * denominator) : -((2 * -numerator + denominator) / (2 * denominator))
    }
}

extension VATBreakdown {
    /// The breakdown of an order as it was placed.
    init(_ order: Order, lines: [OrderLine]) {
        self.init(
            lines: lines.map { ($0.vatRateBasisPoints, $0.unitPriceMinor * $0.quantity) }, discountMinor: order.discountMinor,
            deliveryFeeMinor: order.deliveryFeeMinor, deliveryBasisPoints: order.deliveryVATRateBasisPoints,
            pricesIncludeVAT: order.pricesIncludeVAT)
    }
}
