import CVips
import Foundation
import VipsShim

/// What an upload may change before it is stored.
struct ImageEdits: Sendable, Equatable {
    struct Crop: Sendable, Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// A rectangle on the upright (EXIF-oriented) image.
    var crop: Crop?
    /// Clockwise, in degrees: 0, 90, 180 or 270.
    var rotate: Int = 0
    var whiteBackground = false
    /// The WebP variants keep the image's transparency (cut-outs); the JPEGs are on white.
    var keepsTransparency = false
}

struct ImageLimits: Sendable {
    var maxBytes = 25 * 1024 * 1024
    var maxPixels = 50_000_000
    var minSide = 64
}

/// The files made from one upload, in a work folder the caller deletes.
struct ProcessedImage: Sendable {
    struct Variant: Sendable, Codable, Equatable {
        var width: Int
        var height: Int
        var format: String
        var file: String
    }

    var format: ImageFormat
    var originalFile: URL
    var width: Int
    var height: Int
    var variants: [Variant]
    var dominantColor: String
    var placeholder: String
}

/// The photo pipeline: recognise the type by content, check the limits from the header before
/// decoding, orient, apply edits, decode once, then write a metadata-free original and the
/// variant ladder (each from the next larger, which is much faster than from the original).
enum ImageProcessor {
    static let variantWidths = [2000, 1080, 750, 540, 270]
    static let jpegQuality = 82
    static let webpQuality = 80
    static let originalQuality = 92

    static func process(
        file: URL, claimed: ImageFormat?, edits: ImageEdits, limits: ImageLimits, workDirectory: URL
    ) throws -> ProcessedImage {
        let format = try detect(file: file)
        if let claimed, claimed != format {
            throw Problem(
                .unsupportedMediaType, type: "https://atelier.dev/problems/image-type-mismatch", title: "Image type mismatch",
                detail: "The upload says it is \(claimed.rawValue.uppercased()) but its content is \(format.rawValue.uppercased()).")
        }
        let source = try Vips.open(file.path)
        let pixels = source.width * source.height
        guard pixels <= limits.maxPixels else {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/image-too-many-pixels", title: "Image too large",
                detail: "The image has \(pixels / 1_000_000) megapixels; at most \(limits.maxPixels / 1_000_000) are accepted.")
        }
        guard min(source.width, source.height) >= limits.minSide else {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/image-too-small", title: "Image too small",
                detail: "The image is \(source.width)×\(source.height) px; each side needs at least \(limits.minSide) px.")
        }

        // Decode every pixel once, into memory (this is where damaged or truncated files fail);
        // everything after reads from that copy.
        let decoded: VipsImageRef
        do {
            decoded = try Vips.materialize(source)
        } catch {
            throw Problem(
                .unprocessableEntity, type: "https://atelier.dev/problems/image-damaged", title: "Image damaged",
                detail: "The image could not be decoded: it is damaged or incomplete.")
        }
        var image = try Vips.apply(decoded) { atelier_vips_autorotate($0, $1) }
        if let crop = edits.crop {
            guard crop.x >= 0, crop.y >= 0, crop.width >= limits.minSide, crop.height >= limits.minSide,
                crop.x + crop.width <= image.width, crop.y + crop.height <= image.height
            else {
                throw Problem.invalid(
                    "crop", "must lie inside the \(image.width)×\(image.height) upright image, each side at least \(limits.minSide) px")
            }
            image = try Vips.apply(image) { atelier_vips_crop($0, $1, Int32(crop.x), Int32(crop.y), Int32(crop.width), Int32(crop.height)) }
        }
        if edits.rotate != 0 {
            image = try Vips.apply(image) { atelier_vips_rotate($0, $1, Int32(edits.rotate / 90)) }
        }
        // Metadata goes only now: autorotate above needed the orientation tag.
        let upright = try Vips.apply(image) { atelier_vips_without_metadata($0, $1) }
        var flat = try Vips.apply(upright) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) }
        if edits.whiteBackground {
            let tiny = try Vips.apply(flat) { atelier_vips_resize_to_width($0, $1, 16) }
            let border = BackgroundColor.border(of: try Vips.pixels(tiny), width: tiny.width, height: tiny.height)
            flat = try Vips.materialize(
                try Vips.apply(flat) { atelier_vips_whiten_background($0, $1, border.0, border.1, border.2, 28) })
        }

        let stored = format.storedFormat
        let originalFile = workDirectory.appendingPathComponent("original.\(stored.fileExtension)")
        let keepsAlpha = edits.whiteBackground ? flat : upright
        switch stored {
        case .png: try Vips.check(keepsAlpha.with { atelier_vips_save_png($0, originalFile.path) })
        case .webp:
            try Vips.check(keepsAlpha.with { atelier_vips_save_webp($0, originalFile.path, 90) })
            try WebPMetadata.strip(file: originalFile)
        case .jpeg, .heic: try Vips.check(flat.with { atelier_vips_save_jpeg($0, originalFile.path, Int32(originalQuality), 0) })
        }

        var variants: [ProcessedImage.Variant] = []
        var current = flat
        var transparent = edits.keepsTransparency ? upright : nil
        for width in widths(for: flat.width) {
            if width < current.width {
                current = try Vips.materialize(try Vips.apply(current) { atelier_vips_resize_to_width($0, $1, Int32(width)) })
                if let source = transparent {
                    transparent = try Vips.materialize(try Vips.apply(source) { atelier_vips_resize_to_width($0, $1, Int32(width)) })
                }
            }
            let jpeg = workDirectory.appendingPathComponent("w\(width).jpg")
            let webp = workDirectory.appendingPathComponent("w\(width).webp")
            try Vips.check(current.with { atelier_vips_save_jpeg($0, jpeg.path, Int32(jpegQuality), 1) })
            try Vips.check((transparent ?? current).with { atelier_vips_save_webp($0, webp.path, Int32(webpQuality)) })
            try WebPMetadata.strip(file: webp)
            variants.append(.init(width: current.width, height: current.height, format: "jpeg", file: jpeg.lastPathComponent))
            variants.append(.init(width: current.width, height: current.height, format: "webp", file: webp.lastPathComponent))
        }

        // The placeholder comes from the smallest variant, not from the full-size image.
        let preview = try Vips.apply(current) { atelier_vips_resize_to_width($0, $1, 16) }
        let placeholder = "data:image/jpeg;base64," + (try Vips.jpegData(preview, quality: 40)).base64EncodedString()
        let dominant = DominantColor.of(try Vips.pixels(preview))
        return ProcessedImage(
            format: stored, originalFile: originalFile, width: flat.width, height: flat.height, variants: variants,
            dominantColor: dominant, placeholder: placeholder)
    }

    /// The ladder's widths that fit without upscaling; an image narrower than the smallest step
    /// gets one variant at its own width.
    static func widths(for width: Int) -> [Int] {
        let fitting = variantWidths.filter { $0 <= width }
        return fitting.isEmpty ? [width] : fitting
    }

    static func detect(file: URL) throws -> ImageFormat {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let header = [UInt8](try handle.read(upToCount: 32) ?? Data())
        guard let format = ImageFormat.detect(header) else {
            throw Problem(
                .unsupportedMediaType, type: "https://atelier.dev/problems/unsupported-image", title: "Unsupported image",
                detail: "Only JPEG, PNG, WebP and HEIC photos are accepted; this file is none of them.")
        }
        return format
    }
}

enum DominantColor {
    /// The most common colour among 3-byte pixels, bucketed to 4 bits per channel, as #rrggbb.
    static func of(_ pixels: [UInt8]) -> String {
        var counts: [Int: (count: Int, r: Int, g: Int, b: Int)] = [:]
        var index = 0
        while index + 2 < pixels.count {
            let (r, g, b) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            let key = (r >> 4) << 8 | (g >> 4) << 4 | (b >> 4)
            let entry = counts[key] ?? (0, 0, 0, 0)
            counts[key] = (entry.count + 1, entry.r + r, entry.g + g, entry.b + b)
            index += 3
        }
        guard let best = counts.values.max(by: { $0.count < $1.count }) else { return "#808080" }
        return String(format: "#%02x%02x%02x", best.r / best.count, best.g / best.count, best.b / best.count)
    }
}

enum BackgroundColor {
    /// The mean colour of the outermost pixels: the backdrop of a garment photo.
    static func border(of pixels: [UInt8], width: Int, height: Int) -> (Double, Double, Double) {
        var sum = (0.0, 0.0, 0.0)
        var count = 0.0
        for y in 0..<height {
            for x in 0..<width where y == 0 || y == height - 1 || x == 0 || x == width - 1 {
                let index = (y * width + x) * 3
                guard index + 2 < pixels.count else { continue }
                sum.0 += Double(pixels[index])
                sum.1 += Double(pixels[index + 1])
                sum.2 += Double(pixels[index + 2])
                count += 1
            }
        }
        guard count > 0 else { return (255, 255, 255) }
        return (sum.0 / count, sum.1 / count, sum.2 / count)
    }
}
