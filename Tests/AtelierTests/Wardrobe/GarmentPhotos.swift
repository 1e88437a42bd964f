import CVips
import Foundation
import VipsShim

@testable import Atelier

/// Garment photos made for the closet tests, each with the mask it was drawn from: a top,
/// trousers, a dress or a pair of shoes, lit from above (shaded top to bottom), with a soft shadow
/// falling down and right, on a plain, gradient or lightly textured backdrop.
struct GarmentPhoto {
    enum Shape: CaseIterable { case top, trousers, dress, shoes }
    enum Backdrop: CaseIterable { case plain, gradient, textured }

    var shape: Shape
    var backdrop: Backdrop
    var colour: (UInt8, UInt8, UInt8)
    var width = 640
    var height = 480

    /// The photo's pixels (RGB) and the true mask (255 = garment).
    func render() -> (rgb: [UInt8], mask: [UInt8]) {
        let polygons = outline(width: Double(width), height: Double(height))
        var mask = [UInt8](repeating: 0, count: width * height)
        var shadow = [Double](repeating: 0, count: width * height)
        for polygon in polygons {
            fill(polygon, into: &mask)
            var cast = [UInt8](repeating: 0, count: width * height)
            fill(polygon.map { ($0.0 + 12, $0.1 + 14) }, into: &cast)
            for index in cast.indices where cast[index] != 0 { shadow[index] = 0.35 }
        }
        shadow = boxBlur(boxBlur(shadow, radius: 9), radius: 9)

        let light: (Double, Double, Double) = backdropIsLight ? (244, 243, 240) : (200, 210, 220)
        let far: (Double, Double, Double) = backdropIsLight ? (205, 200, 190) : (150, 170, 190)
        var generator = SplitMix(seed: UInt64(width * 31 + Int(colour.0) * 7 + Int(colour.1) * 3 + Int(colour.2)))
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                var pixel: (Double, Double, Double)
                if mask[index] != 0 {
                    let shade = 0.85 + 0.3 * Double(y) / Double(height)
                    pixel = (Double(colour.0) * shade, Double(colour.1) * shade, Double(colour.2) * shade)
                } else {
                    let t = backdrop == .gradient ? Double(x + y) / Double(width + height) : 0
                    pixel = (light.0 * (1 - t) + far.0 * t, light.1 * (1 - t) + far.1 * t, light.2 * (1 - t) + far.2 * t)
                    if backdrop == .textured {
                        let grain = generator.gaussian() * 10
                        pixel = (pixel.0 + grain, pixel.1 + grain, pixel.2 + grain)
                    }
                    let dark = 1 - shadow[index]
                    pixel = (pixel.0 * dark, pixel.1 * dark, pixel.2 * dark)
                }
                rgb[index * 3] = clamp(pixel.0)
                rgb[index * 3 + 1] = clamp(pixel.1)
                rgb[index * 3 + 2] = clamp(pixel.2)
            }
        }
        return (rgb, mask)
    }

    /// The photo as a JPEG (quality 90, as a phone saves it) and its true mask.
    func jpeg() throws -> (data: Data, mask: [UInt8]) {
        let (rgb, mask) = render()
        let image = try Vips.image(fromBytes: rgb, width: width, height: height, bands: 3)
        return (try Vips.jpegData(image, quality: 90), mask)
    }

    private var backdropIsLight: Bool { colour.0 < 180 }

    private func outline(width w: Double, height h: Double) -> [[(Double, Double)]] {
        func p(_ x: Double, _ y: Double) -> (Double, Double) { (x * w, y * h) }
        switch shape {
        case .top:
            return [[p(0.30, 0.18), p(0.42, 0.15), p(0.5, 0.2), p(0.58, 0.15), p(0.70, 0.18), p(0.85, 0.35), p(0.76, 0.42),
                p(0.68, 0.34), p(0.68, 0.82), p(0.32, 0.82), p(0.32, 0.34), p(0.24, 0.42), p(0.15, 0.35)]]
        case .trousers:
            return [[p(0.36, 0.1), p(0.64, 0.1), p(0.67, 0.45), p(0.63, 0.9), p(0.53, 0.9), p(0.5, 0.42), p(0.47, 0.9),
                p(0.37, 0.9), p(0.33, 0.45)]]
        case .dress:
            return [[p(0.42, 0.1), p(0.58, 0.1), p(0.6, 0.35), p(0.75, 0.88), p(0.25, 0.88), p(0.4, 0.35)]]
        case .shoes:
            return [[p(0.1, 0.55), p(0.24, 0.5), p(0.3, 0.6), p(0.46, 0.64), p(0.46, 0.75), p(0.1, 0.75)],
                [p(0.54, 0.55), p(0.68, 0.5), p(0.74, 0.6), p(0.9, 0.64), p(0.9, 0.75), p(0.54, 0.75)]]
        }
    }

    /// Even-odd scanline fill at pixel centres.
    private func fill(_ polygon: [(Double, Double)], into mask: inout [UInt8]) {
        for y in 0..<height {
            let cy = Double(y) + 0.5
            var crossings: [Double] = []
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if (a.1 <= cy) != (b.1 <= cy) { crossings.append(a.0 + (cy - a.1) / (b.1 - a.1) * (b.0 - a.0)) }
            }
            crossings.sort()
            var i = 0
            while i + 1 < crossings.count {
                let from = max(0, Int((crossings[i] - 0.5).rounded(.up))), to = min(width - 1, Int((crossings[i + 1] - 0.5).rounded(.down)))
                if from <= to { for x in from...to { mask[y * width + x] = 255 } }
                i += 2
            }
        }
    }

    private func boxBlur(_ values: [Double], radius: Int) -> [Double] {
        var horizontal = values
        for y in 0..<height {
            var sum = 0.0
            for x in -radius...(width + radius) {
                if x + radius < width, x + radius >= 0 { sum += values[y * width + x + radius] }
                if x - radius - 1 >= 0, x - radius - 1 < width { sum -= values[y * width + x - radius - 1] }
                if x >= 0, x < width { horizontal[y * width + x] = sum / Double(2 * radius + 1) }
            }
        }
        var out = horizontal
        for x in 0..<width {
            var sum = 0.0
            for y in -radius...(height + radius) {
                if y + radius < height, y + radius >= 0 { sum += horizontal[(y + radius) * width + x] }
                if y - radius - 1 >= 0, y - radius - 1 < height { sum -= horizontal[(y - radius - 1) * width + x] }
                if y >= 0, y < height { out[y * width + x] = sum / Double(2 * radius + 1) }
            }
        }
        return out
    }

    private func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

    /// The 20 photos of the acceptance test: every shape on every backdrop, in several colours.
    static let suite: [GarmentPhoto] = {
        let colours: [(UInt8, UInt8, UInt8)] = [(30, 45, 110), (190, 40, 40), (45, 45, 45), (60, 140, 70), (235, 200, 60), (120, 80, 160), (128, 128, 128)]
        return (0..<20).map { i in
            GarmentPhoto(
                shape: Shape.allCases[i % 4], backdrop: Backdrop.allCases[(i / 4) % 3], colour: colours[i % colours.count],
                width: i % 2 == 0 ? 640 : 480, height: i % 2 == 0 ? 480 : 640)
        }
    }()
}

/// A small deterministic generator for texture grain.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-12), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
