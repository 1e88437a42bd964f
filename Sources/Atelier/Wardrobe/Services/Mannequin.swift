import CVips
import Foundation
import VipsShim

/// The try-on view: a neutral figure, widened or narrowed from the size profile, with each piece
/// drawn over its slot (bottoms and shoes first, outer layers and bags last).
enum Mannequin {
    static let width = 600
    static let height = 1200

    /// Where each slot sits, as fractions of the figure's canvas (centre x, centre y, width).
    static func slotBox(_ slot: ClosetItem.Slot, widthFactor: Double) -> (x: Double, y: Double, scale: Double) {
        switch slot {
        case .accessory: (0.5, 0.07, 0.16)
        case .outer: (0.5, 0.34, 0.62 * widthFactor)
        case .top: (0.5, 0.32, 0.54 * widthFactor)
        case .dress: (0.5, 0.46, 0.56 * widthFactor)
        case .bottom: (0.5, 0.66, 0.4 * widthFactor)
        case .shoes: (0.5, 0.95, 0.34)
        case .bag: (0.82, 0.56, 0.24)
        }
    }

    static let drawingOrder: [ClosetItem.Slot] = [.bottom, .shoes, .top, .dress, .outer, .bag, .accessory]

    /// How much wider than the average figure (chest 96 cm, hips 100 cm), kept within 0.8…1.3.
    static func widthFactor(_ profile: SizeProfile?) -> Double {
        var ratios: [Double] = []
        if let chest = profile?.chestCm { ratios.append(chest / 96) }
        if let hips = profile?.hipsCm { ratios.append(hips / 100) }
        guard !ratios.isEmpty else { return 1 }
        return min(1.3, max(0.8, ratios.reduce(0, +) / Double(ratios.count)))
    }

    /// The figure as SVG: head, neck, torso, arms and legs in a light grey.
    static func figureSVG(widthFactor: Double) -> String {
        let w = Double(width), h = Double(height), cx = w / 2
        let shoulder = 150 * widthFactor, waist = 100 * widthFactor, hip = 125 * widthFactor
        func p(_ x: Double, _ y: Double) -> String { String(format: "%.1f,%.1f", x, y) }
        let torso = [p(cx - shoulder, 0.2 * h), p(cx + shoulder, 0.2 * h), p(cx + waist, 0.45 * h), p(cx + hip, 0.55 * h),
            p(cx - hip, 0.55 * h), p(cx - waist, 0.45 * h)].joined(separator: " ")
        let legs = [p(cx - hip, 0.55 * h), p(cx + hip, 0.55 * h), p(cx + hip * 0.75, 0.93 * h), p(cx + 12, 0.93 * h), p(cx, 0.62 * h),
            p(cx - 12, 0.93 * h), p(cx - hip * 0.75, 0.93 * h)].joined(separator: " ")
        let leftArm = [p(cx - shoulder, 0.2 * h), p(cx - shoulder - 40, 0.22 * h), p(cx - shoulder - 55, 0.5 * h), p(cx - shoulder - 20, 0.5 * h),
            p(cx - shoulder + 5, 0.27 * h)].joined(separator: " ")
        let rightArm = [p(cx + shoulder, 0.2 * h), p(cx + shoulder + 40, 0.22 * h), p(cx + shoulder + 55, 0.5 * h), p(cx + shoulder - 20 + 40, 0.5 * h),
            p(cx + shoulder - 5, 0.27 * h)].joined(separator: " ")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <g fill="#d9d6d2">
            <circle cx="\(cx)" cy="\(0.08 * h)" r="\(0.055 * h)"/>
            <rect x="\(cx - 22)" y="\(0.12 * h)" width="44" height="\(0.09 * h)"/>
            <polygon points="\(torso)"/><polygon points="\(legs)"/><polygon points="\(leftArm)"/><polygon points="\(rightArm)"/>
            </g></svg>
            """
    }

    /// `pieces`: image files with their slots. Returns a PNG.
    static func render(_ pieces: [(file: URL, slot: ClosetItem.Slot)], profile: SizeProfile?, workDirectory: URL) throws -> Data {
        let factor = widthFactor(profile)
        let figure = workDirectory.appendingPathComponent("figure.svg")
        try Data(figureSVG(widthFactor: factor).utf8).write(to: figure)
        let ordered = pieces.sorted {
            (drawingOrder.firstIndex(of: $0.slot) ?? 0) < (drawingOrder.firstIndex(of: $1.slot) ?? 0)
        }
        let layers = ordered.map { piece -> OutfitCanvas.Layer in
            let box = slotBox(piece.slot, widthFactor: factor)
            return OutfitCanvas.Layer(file: piece.file, x: box.x, y: box.y, scale: box.scale, rotation: 0)
        }
        return try OutfitCanvas.render(layers, width: width, height: height, base: figure)
    }
}
