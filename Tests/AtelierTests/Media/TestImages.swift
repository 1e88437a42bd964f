import CVips
import Foundation
import VipsShim

@testable import Atelier

/// Images made for the media tests. The test pattern's red channel grows left to right and its
/// green channel top to bottom, so the corners tell which way up a stored image is.
enum TestImages {
    static func directory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("atelier-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The bytes of a file made in a scratch directory, which goes away (test runs leave nothing in /tmp).
    static func takeFile(_ file: URL) throws -> Data {
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        return try Data(contentsOf: file)
    }

    /// A JPEG as a phone writes it: pixels stored sideways with EXIF orientation, and a GPS position.
    static func phoneJPEG(width: Int, height: Int, orientation: Int = 6, gps: Bool = true) throws -> Data {
        try Vips.start()
        guard let image = atelier_vips_test_pattern(Int32(width), Int32(height)) else { throw Vips.lastError() }
        let ref = VipsImageRef(image)
        let file = try directory().appendingPathComponent("phone.jpg")
        try ref.with { pointer in
            atelier_vips_set_orientation(pointer, Int32(orientation))
            if gps {
                atelier_vips_set_string(pointer, "exif-ifd3-GPSLatitudeRef", "N")
                atelier_vips_set_string(pointer, "exif-ifd3-GPSLatitude", "57/1 42/1 30/1")
            }
            atelier_vips_set_string(pointer, "exif-ifd0-Make", "AtelierPhone")
            try Vips.check(atelier_vips_save_jpeg_keep_metadata(pointer, file.path, 90))
        }
        return try takeFile(file)
    }

    static func png(width: Int, height: Int) throws -> Data {
        try Vips.start()
        guard let image = atelier_vips_test_pattern(Int32(width), Int32(height)) else { throw Vips.lastError() }
        let file = try directory().appendingPathComponent("pattern.png")
        try VipsImageRef(image).with { try Vips.check(atelier_vips_save_png($0, file.path)) }
        return try takeFile(file)
    }

    static func heic(width: Int, height: Int) throws -> Data {
        try Vips.start()
        guard let image = atelier_vips_test_pattern(Int32(width), Int32(height)) else { throw Vips.lastError() }
        let file = try directory().appendingPathComponent("pattern.heic")
        try VipsImageRef(image).with { try Vips.check(atelier_vips_save_heic($0, file.path)) }
        return try takeFile(file)
    }

    /// A garment photo in miniature: a plain grey backdrop with a dark blue square in the middle.
    static func garmentOnBackdrop(size: Int = 200) throws -> Data {
        try Vips.start()
        var pixels = [UInt8](repeating: 190, count: size * size * 3)
        for y in size / 3..<(2 * size / 3) {
            for x in size / 3..<(2 * size / 3) {
                let index = (y * size + x) * 3
                pixels[index] = 20
                pixels[index + 1] = 30
                pixels[index + 2] = 120
            }
        }
        guard let image = pixels.withUnsafeBytes({
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(size), Int32(size), 3, VIPS_FORMAT_UCHAR)
        }) else { throw Vips.lastError() }
        let file = try directory().appendingPathComponent("garment.png")
        try VipsImageRef(image).with { try Vips.check(atelier_vips_save_png($0, file.path)) }
        return try takeFile(file)
    }

    /// A PNG whose header claims `width`×`height` but carries almost no pixel data: refusing it
    /// proves the limit is checked from the header, before decoding.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + payload
            return bigEndian(UInt32(payload.count)) + body + bigEndian(CRC32.checksum(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", header) + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", []))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// What a stored file holds: size, EXIF presence, and the colour of its top-left and top-right pixels.
    struct Inspection {
        var width: Int
        var height: Int
        var hasEXIF: Bool
        var hasGPS: Bool
        var orientation: Int
        var topLeft: [UInt8]
        var topRight: [UInt8]
        var center: [UInt8]
    }

    static func inspect(_ data: Data) throws -> Inspection {
        let file = try directory().appendingPathComponent("inspect")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try data.write(to: file)
        let image = try Vips.materialize(try Vips.open(file.path))
        var orientation: Int32 = 1
        let (hasEXIF, hasGPS) = image.with { pointer in
            if vips_image_get_typeof(pointer, "orientation") != 0 { vips_image_get_int(pointer, "orientation", &orientation) }
            return (vips_image_get_typeof(pointer, "exif-data") != 0, vips_image_get_typeof(pointer, "exif-ifd3-GPSLatitude") != 0)
        }
        let flat = try Vips.apply(image) { atelier_vips_flatten_srgb($0, $1, 255, 255, 255) }
        func pixel(_ x: Int, _ y: Int) throws -> [UInt8] {
            let dot = try Vips.apply(flat) { atelier_vips_crop($0, $1, Int32(x), Int32(y), 1, 1) }
            return try Vips.pixels(dot)
        }
        return Inspection(
            width: image.width, height: image.height, hasEXIF: hasEXIF, hasGPS: hasGPS, orientation: Int(orientation),
            topLeft: try pixel(2, 2), topRight: try pixel(image.width - 3, 2), center: try pixel(image.width / 2, image.height / 2))
    }
}
