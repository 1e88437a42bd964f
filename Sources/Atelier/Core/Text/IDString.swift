import Foundation

extension UUID {
    /// The id as it leaves the server: lower case, `8-4-4-4-12` hex digits. Written here rather than
    /// as `uuidString.lowercased()`: Foundation formats the 16 bytes with `snprintf`, and every id of
    /// every answer passes through this (printf was 1–2 % of the list and product workloads, issue 19).
    var idString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Hex.digit(byte >> 4)
                    text[position + 1] = Hex.digit(byte & 0x0f)
                    position += 2
                }
                return position
            }
        }
    }
}

extension UUID {
    /// The 36-character form, in either case (`8-4-4-4-12` hex digits), parsed without a scanner
    /// (`UUID(uuidString:)` reads it with `sscanf`, which also lets a space stand before a pair of digits).
    init?(text: String) {
        self.init(utf8: text.utf8)
    }

    /// The 36-character form as UTF-8 bytes (a slice of a longer text, say).
    init?<Bytes: Sequence<UInt8>>(utf8: Bytes) {
        var bytes = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
                     UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var utf8 = utf8.makeIterator()
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8.next() == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue) else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return utf8.next() == nil && position == 36
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
