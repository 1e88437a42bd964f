import Foundation
import SQLKit

/// Column reads for the hot readers (`ProductViewReader`: every list, feed, search and product
/// page). SQLKit decodes a UUID or an optional column through a `Decoder` made for it, and a UUID
/// from SQLite's text through Foundation's parser (`sscanf`); a product card's rows took several
/// thousand of those per page (issue 19). Here a UUID stored as text is read as a string and
/// parsed directly, and an optional column is tested for NULL before a plain read.
struct FastColumns {
    let row: any SQLRow
    /// SQLite keeps UUIDs as text; PostgreSQL has a uuid type, decoded as usual.
    let textUUIDs: Bool

    init(_ row: any SQLRow, textUUIDs: Bool) {
        self.row = row
        self.textUUIDs = textUUIDs
    }

    /// Whether `sql` keeps UUIDs as text (SQLite) rather than as a uuid type (PostgreSQL).
    static func textUUIDs(on sql: any SQLDatabase) -> Bool {
        sql.dialect.name != "postgresql"
    }

    func uuid(_ column: String) throws -> UUID {
        guard textUUIDs else { return try row.decode(column: column, as: UUID.self) }
        let text = try row.decode(column: column, as: String.self)
        guard let id = UUID(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(column) holds \(text), not a UUID"))
        }
        return id
    }

    func optionalUUID(_ column: String) throws -> UUID? {
        try row.decodeNil(column: column) ? nil : uuid(column)
    }

    func value<T: Decodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try row.decode(column: column, as: T.self)
    }

    func optional<T: Decodable>(_ column: String, as type: T.Type = T.self) throws -> T? {
        try row.decodeNil(column: column) ? nil : row.decode(column: column, as: T.self)
    }
}

extension UUID {
    /// The 36-character form, in either case (`8-4-4-4-12` hex digits), parsed without a scanner.
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
