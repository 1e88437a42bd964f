/// Bytes (digests, signatures) as lower-case hexadecimal text. `String(format: "%02x")` went
/// through printf for every byte: on an API answer's ETag, a token's hash and a media URL's
/// signature, printf was 1.5 % of a product page's CPU (issue 19).
enum Hex {
    static func lowercase<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digit(byte >> 4))
            text.append(digit(byte & 0x0f))
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The lower-case digit (ASCII) of a value below 16.
    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
