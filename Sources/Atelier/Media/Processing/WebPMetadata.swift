import Foundation

/// Removes EXIF and XMP chunks from a WebP file. libvips 8.14 writes an EXIF chunk even when told
/// to strip, so every WebP we store goes through this.
enum WebPMetadata {
    static func strip(file fileURL: URL) throws {
        let data = try Data(contentsOf: fileURL)
        guard data.count >= 12, data.prefix(4) == Data("RIFF".utf8), data[8..<12] == Data("WEBP".utf8) else { return }
        var output = Data()
        var offset = 12
        var changed = false
        while offset + 8 <= data.count {
            let type = String(decoding: data[offset..<offset + 4], as: UTF8.self)
            let size = Int(data[offset + 4]) | Int(data[offset + 5]) << 8 | Int(data[offset + 6]) << 16 | Int(data[offset + 7]) << 24
            let end = min(data.count, offset + 8 + size + (size & 1))
            if type == "EXIF" || type == "XMP " {
                changed = true
            } else {
                var chunk = data[offset..<end]
                if type == "VP8X", chunk.count > 8 {
                    // Flags: 0x08 EXIF, 0x04 XMP.
                    chunk[chunk.startIndex + 8] &= ~UInt8(0x0C)
                }
                output.append(chunk)
            }
            offset = end
        }
        guard changed else { return }
        let total = UInt32(output.count + 4)
        var file = Data("RIFF".utf8)
        file.append(contentsOf: [UInt8(total & 0xFF), UInt8((total >> 8) & 0xFF), UInt8((total >> 16) & 0xFF), UInt8(total >> 24)])
        file.append(Data("WEBP".utf8))
        file.append(output)
        try file.write(to: fileURL, options: .atomic)
    }
}
