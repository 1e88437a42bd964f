import CVips
import Foundation
import VipsShim

/// The outfit canvas: 4:5, like a phone's portrait photo. Layouts are fractions of it, so any
/// client draws the same outfit at any size; the server renders it at 1080 × 1350.
enum OutfitCanvas {
    static let width = 1080
    static let height = 1350

    struct Layer: Sendable {
        /// An image file (PNG with transparency for cut-outs, any photo otherwise).
        var file: URL
        var x: Double
        var y: Double
        var scale: Double
        var rotation: Double
    }

    /// Draws `layers` bottom to top on white (or on `base`, an image file of the canvas's size)
    /// and returns the PNG.
    static func render(_ layers: [Layer], width: Int = width, height: Int = height, base: URL? = nil) throws -> Data {
        try Vips.start()
        var canvas: VipsImageRef
        if let base {
            canvas = try withAlpha(try Vips.apply(try Vips.materialize(try Vips.open(base.path))) {
                atelier_vips_resize_exact($0, $1, Int32(width), Int32(height))
            })
        } else {
            guard let blank = atelier_vips_canvas(Int32(width), Int32(height), 255, 255, 255, 255) else { throw Vips.lastError() }
            canvas = VipsImageRef(blank)
        }
        for layer in layers {
            let pieceWidth = max(1, Int((layer.scale * Double(width)).rounded()))
            var thumbnail: UnsafeMutablePointer<VipsImage>?
            // Fitted into a square of the piece's width: the width is what the layout gives.
            guard atelier_vips_thumbnail_file(layer.file.path, &thumbnail, Int32(pieceWidth * 4)) == 0, let thumbnail else {
                throw Vips.lastError()
            }
            var piece = try withAlpha(try Vips.apply(VipsImageRef(thumbnail)) { atelier_vips_resize_to_width($0, $1, Int32(pieceWidth)) })
            if piece.width < pieceWidth {
                let factor = Double(pieceWidth) / Double(piece.width)
                piece = try Vips.apply(piece) { atelier_vips_similarity($0, $1, factor, 0) }
            }
            if layer.rotation != 0 {
                piece = try Vips.apply(piece) { atelier_vips_similarity($0, $1, 1, layer.rotation) }
            }
            let left = Int((layer.x * Double(width)).rounded()) - piece.width / 2
            let top = Int((layer.y * Double(height)).rounded()) - piece.height / 2
            canvas = try Vips.materialize(try Vips.apply(canvas) { base, out in piece.with { atelier_vips_composite_over(base, $0, out, Int32(left), Int32(top)) } })
        }
        return try Vips.pngData(try Vips.apply(canvas) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) })
    }

    /// sRGB with an alpha band (opaque when the image had none).
    private static func withAlpha(_ image: VipsImageRef) throws -> VipsImageRef {
        let srgb = try Vips.apply(image) { atelier_vips_to_srgb_alpha($0, $1) }
        return try Vips.materialize(srgb)
    }
}
