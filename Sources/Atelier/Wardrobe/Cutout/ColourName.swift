import Foundation

/// The closet's fixed palette. A garment's colours are named from its cut-out's pixels: each
/// opaque pixel votes for its nearest palette colour (in CIE Lab, which matches how far apart
/// people see colours), so shading and folds do not split one colour into many.
enum ColourName: String, CaseIterable, Codable, Sendable {
    case black, white, grey, beige, brown, navy, blue, lightBlue = "light-blue", teal, green, olive, yellow, orange, red, burgundy,
        pink, purple

    /// Representative sRGB values.
    var rgb: (Double, Double, Double) {
        switch self {
        case .black: (20, 20, 22)
        case .white: (245, 245, 242)
        case .grey: (128, 128, 128)
        case .beige: (222, 204, 170)
        case .brown: (110, 70, 40)
        case .navy: (25, 35, 80)
        case .blue: (40, 80, 180)
        case .lightBlue: (140, 185, 230)
        case .teal: (20, 128, 128)
        case .green: (50, 140, 60)
        case .olive: (110, 115, 50)
        case .yellow: (240, 210, 50)
        case .orange: (235, 120, 30)
        case .red: (200, 30, 35)
        case .burgundy: (115, 20, 40)
        case .pink: (240, 150, 180)
        case .purple: (110, 50, 140)
        }
    }

    /// Neutrals go with anything (navy, beige and olive included, as stylists count them).
    var isNeutral: Bool {
        switch self {
        case .black, .white, .grey, .beige, .brown, .navy, .olive: true
        default: false
        }
    }

    /// Hue angle in degrees for the colour-wheel rules; nil for neutrals.
    var hue: Double? {
        guard !isNeutral else { return nil }
        let (r, g, b) = rgb
        let maxV = max(r, g, b), minV = min(r, g, b), delta = maxV - minV
        guard delta > 0 else { return nil }
        var h: Double
        if maxV == r { h = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6) }
        else if maxV == g { h = 60 * ((b - r) / delta + 2) }
        else { h = 60 * ((r - g) / delta + 4) }
        if h < 0 { h += 360 }
        return h
    }

    var label: String { rawValue.replacingOccurrences(of: "-", with: " ") }

    private static let labPalette: [(ColourName, Lab)] = allCases.map { ($0, Lab(rgb: $0.rgb)) }

    static func nearest(r: UInt8, g: UInt8, b: UInt8) -> ColourName {
        let lab = Lab(rgb: (Double(r), Double(g), Double(b)))
        var best = ColourName.grey
        var bestDistance = Double.infinity
        for (name, reference) in labPalette {
            let distance = lab.distanceSquared(to: reference)
            if distance < bestDistance { (best, bestDistance) = (name, distance) }
        }
        return best
    }

    /// The colours of a cut-out's opaque pixels (`bands` 4: RGBA), most common first; a colour
    /// is listed when it covers at least 12 % of the garment. Pixels are sampled on a grid of at
    /// most ~40 000.
    static func rank(pixels: [UInt8], bands: Int) -> [ColourName] {
        let count = pixels.count / bands
        guard count > 0 else { return [] }
        let step = max(1, count / 40_000)
        var votes: [ColourName: Int] = [:]
        var cache: [Int: ColourName] = [:]
        var total = 0
        var index = 0
        while index < count {
            let offset = index * bands
            if bands < 4 || pixels[offset + 3] >= 200 {
                let (r, g, b) = (pixels[offset], pixels[offset + 1], pixels[offset + 2])
                // 5 bits a channel is far finer than the palette's spacing.
                let key = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
                let name = cache[key] ?? nearest(r: r, g: g, b: b)
                cache[key] = name
                votes[name, default: 0] += 1
                total += 1
            }
            index += step
        }
        guard total > 0 else { return [] }
        return votes.filter { $0.value * 100 >= total * 12 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
            .map(\.key)
    }
}

/// CIE L*a*b* (D65) for colour distances.
struct Lab {
    var l: Double, a: Double, b: Double

    init(rgb: (Double, Double, Double)) {
        func linear(_ c: Double) -> Double {
            let v = c / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(rgb.0), linear(rgb.1), linear(rgb.2))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        l = 116 * f(y) - 16
        a = 500 * (f(x) - f(y))
        self.b = 200 * (f(y) - f(z))
    }

    func distanceSquared(to other: Lab) -> Double {
        let (dl, da, db) = (l - other.l, a - other.a, b - other.b)
        return dl * dl + da * da + db * db
    }
}
