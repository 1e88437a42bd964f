import Foundation

extension MediaVariant {
    /// The variants a media row lists. Every image of every list card and product answer needs them,
    /// and JSONDecoder took a tenth of a list page's CPU (issue 19, W2v profile; 100 000 distinct lists,
    /// so a memo of parsed lists rarely hit). The lists `MediaService` writes are read by
    /// `VariantListScanner`; anything else goes to JSONDecoder as before.
    static func parsed(_ json: String) -> [MediaVariant] {
        if let scanned = VariantListScanner.parse(json) { return scanned }
        return (try? JSONDecoder().decode([MediaVariant].self, from: Data(json.utf8))) ?? []
    }
}

/// Reads a variant list in the exact form JSONEncoder writes `[MediaVariant]` (compact, keys in any
/// order, `\/` `\\` `\"` the only escapes). Returns nil at the first byte outside that form, so the
/// caller falls back to the full decoder: never a different answer, only a faster one.
struct VariantListScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    static func parse(_ json: String) -> [MediaVariant]? {
        var json = json
        return json.withUTF8 { bytes in
            var scanner = VariantListScanner(bytes: bytes)
            return scanner.list()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func take(_ byte: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: byte) else { return false }
        index += 1
        return true
    }

    private mutating func list() -> [MediaVariant]? {
        guard take("[") else { return nil }
        var variants: [MediaVariant] = []
        if !take("]") {
            repeat {
                guard let variant = object() else { return nil }
                variants.append(variant)
            } while take(",")
            guard take("]") else { return nil }
        }
        return index == bytes.count ? variants : nil
    }

    private mutating func object() -> MediaVariant? {
        guard take("{") else { return nil }
        var width: Int?, height: Int?, format: String?, key: String?
        repeat {
            guard let name = string(), take(":") else { return nil }
            switch name {
            case "width": width = integer()
            case "height": height = integer()
            case "format": format = string()
            case "key": key = string()
            default: return nil
            }
        } while take(",")
        guard take("}"), let width, let height, let format, let key else { return nil }
        return MediaVariant(width: width, height: height, format: format, key: key)
    }

    /// A non-negative integer of at most nine digits (image sizes).
    private mutating func integer() -> Int? {
        var value = 0, digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]), digits < 9 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// A string without escapes is copied once; one with `\/`, `\\` or `\"` (every key: JSONEncoder
    /// escapes slashes) is measured first, then unescaped straight into the string's own storage.
    private mutating func string() -> String? {
        guard take("\"") else { return nil }
        let start = index
        var escapes = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            switch bytes[index] {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count, Self.isSimpleEscape(bytes[index + 1]) else { return nil }
                escapes += 1
                index += 2
            case 0..<0x20:
                return nil  // control characters must be escaped in JSON: not our form
            default:
                index += 1
            }
        }
        guard index < bytes.count else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        guard escapes > 0 else { return String(decoding: raw, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count - escapes) { text in
            var written = 0, read = 0
            while read < raw.count {
                if raw[read] == UInt8(ascii: "\\") { read += 1 }
                text[written] = raw[read]
                written += 1
                read += 1
            }
            return written
        }
    }

    private static func isSimpleEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"")
    }
}
