import Foundation

/// The image types we accept, recognised by their first bytes, never by name or declared type.
enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heic

    var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        }
    }

    /// The format the cleaned original is stored in (HEIC is kept as JPEG: browsers cannot show it).
    var storedFormat: ImageFormat { self == .heic ? .jpeg : self }

    var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    static func detect(_ header: [UInt8]) -> ImageFormat? {
        if header.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if header.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if header.count >= 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        // ISO base media file: a "ftyp" box whose brand is one of HEIF's.
        if header.count >= 12, Array(header[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: header[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return .heic }
        }
        return nil
    }

    /// What a declared media type or file extension claims, if it names one of our formats.
    static func claimed(mediaType: String?, filename: String?) -> ImageFormat? {
        if let type = mediaType?.lowercased().split(separator: ";").first?.trimmingCharacters(in: .whitespaces) {
            switch type {
            case "image/jpeg", "image/jpg", "image/pjpeg": return .jpeg
            case "image/png": return .png
            case "image/webp": return .webp
            case "image/heic", "image/heif": return .heic
            default: break
            }
        }
        switch filename.map({ ($0 as NSString).pathExtension.lowercased() }) {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "heic", "heif": return .heic
        default: return nil
        }
    }
}
