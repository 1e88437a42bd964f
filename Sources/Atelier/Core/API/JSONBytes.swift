import Foundation
import OpenAPIRuntime

/// JSON written straight into bytes, for the answers the API sends most (issue 19): Foundation's
/// `JSONEncoder` builds a tree of boxed values per answer and then writes it, about a tenth of a
/// product page's CPU. The output is byte for byte what the generated server's encoder writes
/// (compact, sorted keys, `/` escaped, doubles as `description` less a trailing `.0`), so bodies
/// and their ETags do not change; `JSONBytesTests` and the schema tests compare the two.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    private let dates: any DateTranscoder

    init(dates: any DateTranscoder, capacity: Int = 4096) {
        self.dates = dates
        bytes.reserveCapacity(capacity)
    }

    /// `{ ... }`; `body` writes the fields in sorted key order (as `.sortedKeys` does).
    mutating func object(_ body: (inout JSONBytes) throws -> Void) rethrows {
        bytes.append(UInt8(ascii: "{"))
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
    }

    /// One field; nothing for nil, as the generated types' `encodeIfPresent` does.
    mutating func field(_ key: StaticString, _ value: (some JSONBytesEncodable)?) throws {
        guard let value else { return }
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        try value.writeJSON(to: &self)
    }

    mutating func array<Element: JSONBytesEncodable>(_ elements: [Element]) throws {
        bytes.append(UInt8(ascii: "["))
        for element in elements {
            separate()
            try element.writeJSON(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A comma before every field or element but the first: a value never ends in `{` or `[`.
    private mutating func separate() {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Hex.digit(byte >> 4), Hex.digit(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                count += 1
                buffer[20 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// As Foundation writes a `Double`: its shortest `description`, without a trailing `.0`.
    /// Foundation refuses a non-finite number (the whole answer fails); none reaches here (ratings
    /// are means of counted stars), and `null` is written should one ever.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return bytes.append(contentsOf: "null".utf8) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    mutating func boolean(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func date(_ value: Date) throws {
        string(try dates.encode(value))
    }
}

/// A value `JSONBytes` can write: the schema types of the answers it writes, and their parts.
protocol JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws
}

extension String: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) { json.string(self) }
}

extension Int: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) { json.integer(Int64(self)) }
}

extension Int64: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) { json.integer(self) }
}

extension Double: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) { json.number(self) }
}

extension Bool: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) { json.boolean(self) }
}

extension Date: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws { try json.date(self) }
}

extension Array: JSONBytesEncodable where Element: JSONBytesEncodable {
    func writeJSON(to json: inout JSONBytes) throws { try json.array(self) }
}

/// The generated enums (`gender`, `status`, …) are written as their raw text.
extension JSONBytesEncodable where Self: RawRepresentable, RawValue == String {
    func writeJSON(to json: inout JSONBytes) { json.string(rawValue) }
}
