extension BinaryInteger {
    /// The number in decimal, zero-padded to `width` characters as `String(format: "%0Nd")` writes
    /// it ("07", "2026", "-05"), without printf: prices and opening hours are written for every
    /// product card and page (issue 19).
    func zeroPadded(_ width: Int) -> String {
        let digits = String(magnitude)
        let sign = self < 0 ? "-" : ""
        let zeros = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: zeros) + digits
    }
}
