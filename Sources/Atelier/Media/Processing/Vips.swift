import CVips
import Foundation
import NIOConcurrencyHelpers
import VipsShim

/// A libvips image owned by Swift: released when the last reference goes.
final class VipsImageRef: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// Calls C with the image kept alive for the whole call (ARC may otherwise release it early).
    func with<T>(_ body: (UnsafeMutablePointer<VipsImage>) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(pointer) }
    }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
}

struct VipsError: Error, CustomStringConvertible {
    var description: String
}

/// Thin, throwing Swift calls over the C shim.
enum Vips {
    private static let started: Result<Void, VipsError> = {
        atelier_vips_init() == 0 ? .success(()) : .failure(VipsError(description: "libvips failed to start"))
    }()

    static func start() throws {
        try started.get()
    }

    static func lastError() -> VipsError {
        let message = String(cString: vips_error_buffer()).trimmingCharacters(in: .whitespacesAndNewlines)
        vips_error_clear()
        return VipsError(description: message.isEmpty ? "libvips failed" : message)
    }

    static func open(_ path: String) throws -> VipsImageRef {
        try start()
        guard let image = atelier_vips_open(path) else { throw lastError() }
        return VipsImageRef(image)
    }

    static func apply(
        _ image: VipsImageRef, _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws -> VipsImageRef {
        var out: UnsafeMutablePointer<VipsImage>?
        guard image.with({ operation($0, &out) }) == 0, let out else { throw lastError() }
        return VipsImageRef(out)
    }

    static func materialize(_ image: VipsImageRef) throws -> VipsImageRef {
        guard let out = image.with({ atelier_vips_materialize($0) }) else { throw lastError() }
        return VipsImageRef(out)
    }

    static func check(_ status: Int32) throws {
        if status != 0 { throw lastError() }
    }

    static func jpegData(_ image: VipsImageRef, quality: Int) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        try check(image.with { atelier_vips_save_jpeg_buffer($0, &buffer, &length, Int32(quality)) })
        defer { g_free(buffer) }
        return Data(bytes: buffer!, count: length)
    }

    /// 8-bit sRGB pixels, row by row (3 bytes a pixel). For small images only.
    static func pixels(_ image: VipsImageRef) throws -> [UInt8] {
        var size = 0
        guard let memory = image.with({ vips_image_write_to_memory($0, &size) }) else { throw lastError() }
        defer { g_free(memory) }
        return Array(UnsafeRawBufferPointer(start: memory, count: size))
    }
}

extension Vips {
    /// An image over a copy of `bytes` (8-bit, `bands` per pixel, row by row).
    static func image(fromBytes bytes: [UInt8], width: Int, height: Int, bands: Int) throws -> VipsImageRef {
        try start()
        guard bytes.count == width * height * bands,
            let image = bytes.withUnsafeBytes({
                vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
            })
        else { throw lastError() }
        return VipsImageRef(image)
    }

    static func pngData(_ image: VipsImageRef) throws -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        try check(image.with { atelier_vips_save_png_buffer($0, &buffer, &length) })
        defer { g_free(buffer) }
        return Data(bytes: buffer!, count: length)
    }
}
