import CVips
import CutoutShim
import Foundation
import VipsShim

/// A garment cut out of its photo: the garment on transparency, cropped to the garment, and
/// the colours named from its own pixels.
struct Cutout: Sendable {
    /// PNG, RGBA, at most `GarmentCutout.maxSide` pixels on the long side.
    var png: Data
    var width: Int
    var height: Int
    var colours: [ColourName]
    /// The mask on the whole upright photo (scaled to the cut-out's resolution), 0 or 255 per pixel
    /// with soft edges; kept for checks, not stored.
    var mask: [UInt8]
    var maskWidth: Int
    var maskHeight: Int
}

/// Background removal on the server's CPU: OpenCV's GrabCut seeded from the photo's border
/// (Sources/CutoutShim), or a mask the phone made. The same photo always gives the same bytes:
/// GrabCut's generator is reset per call and libvips' resampling and PNG writer are deterministic.
enum GarmentCutout {
    /// GrabCut's working size (long side): its cost grows with the pixel count, and at this size a
    /// garment's outline is already finer than the soft edge the mask gets when scaled up.
    static let workingSide = 400
    static let maxSide = 1600
    static let grabCutIterations = 5

    /// `photo` and `deviceMask` are files; the mask (any image: white or opaque = garment) is
    /// used as given, scaled onto the upright photo.
    static func cutOut(photo: URL, deviceMask: URL? = nil) throws -> Cutout {
        let full = try uprightRGB(photo)
        let (width, height) = (full.width, full.height)

        let mask: VipsImageRef
        if let deviceMask {
            let given = try Vips.apply(try Vips.materialize(try Vips.open(deviceMask.path))) { atelier_vips_to_mask($0, $1) }
            mask = try Vips.materialize(try Vips.apply(given) { atelier_vips_resize_exact($0, $1, Int32(width), Int32(height)) })
        } else {
            mask = try grabCutMask(full)
        }
        let maskPixels = try Vips.pixels(mask)
        guard let box = bounds(of: maskPixels, width: width, height: height) else {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/no-garment-found", title: "No garment found",
                detail: "No garment could be told apart from the backdrop; photograph it on a plain, contrasting background or send a mask.")
        }
        let rgba = try Vips.apply(full) { image, out in mask.with { atelier_vips_with_alpha(image, $0, out) } }
        let cropped = try Vips.materialize(try Vips.apply(rgba) {
            atelier_vips_crop($0, $1, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        })
        let png = try Vips.pngData(cropped)
        let colours = ColourName.rank(pixels: try Vips.pixels(cropped), bands: 4)
        return Cutout(
            png: png, width: box.width, height: box.height, colours: colours, mask: maskPixels, maskWidth: width, maskHeight: height)
    }

    /// The photo turned upright and fitted into `maxSide` (shrunk while decoding, which keeps a
    /// 12 MP photo's memory and time down), without metadata, flattened to 8-bit sRGB, in memory.
    static func uprightRGB(_ photo: URL) throws -> VipsImageRef {
        try Vips.start()
        var thumbnail: UnsafeMutablePointer<VipsImage>?
        guard atelier_vips_thumbnail_file(photo.path, &thumbnail, Int32(maxSide)) == 0, let thumbnail else { throw Vips.lastError() }
        let stripped = try Vips.apply(VipsImageRef(thumbnail)) { atelier_vips_without_metadata($0, $1) }
        return try Vips.materialize(try Vips.apply(stripped) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) })
    }

    static func grabCutMask(_ full: VipsImageRef) throws -> VipsImageRef {
        let (width, height) = fit(full.width, full.height, longSide: workingSide)
        let small = try Vips.apply(full) { atelier_vips_resize_exact($0, $1, Int32(width), Int32(height)) }
        let rgb = try Vips.pixels(small)
        guard rgb.count == width * height * 3 else { throw VipsError(description: "unexpected pixel layout for the cut-out") }
        var mask = [UInt8](repeating: 0, count: width * height)
        let border = max(2, min(width, height) / 100)
        let status = rgb.withUnsafeBufferPointer { pixels in
            mask.withUnsafeMutableBufferPointer {
                atelier_cutout_grabcut(pixels.baseAddress, Int32(width), Int32(height), Int32(border), Int32(grabCutIterations), $0.baseAddress)
            }
        }
        guard status == 0 else {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/no-garment-found", title: "No garment found",
                detail: "The photo is too small to tell a garment from its backdrop.")
        }
        let image = try Vips.image(fromBytes: mask, width: width, height: height, bands: 1)
        // Scaled up with interpolation: the edge becomes a soft ramp instead of stairs.
        return try Vips.materialize(try Vips.apply(image) { atelier_vips_resize_exact($0, $1, Int32(full.width), Int32(full.height)) })
    }

    /// Width and height scaled so the long side is at most `longSide` (never enlarged).
    static func fit(_ width: Int, _ height: Int, longSide: Int) -> (Int, Int) {
        let long = max(width, height)
        guard long > longSide else { return (width, height) }
        let scale = Double(longSide) / Double(long)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The garment's bounding box (mask ≥ 128) with a small margin, or nil when the mask is empty.
    static func bounds(of mask: [UInt8], width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where mask[row + x] >= 128 {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= minX, maxY >= minY else { return nil }
        let margin = max(2, max(width, height) / 100)
        let x0 = max(0, minX - margin), y0 = max(0, minY - margin)
        let x1 = min(width, maxX + 1 + margin), y1 = min(height, maxY + 1 + margin)
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
