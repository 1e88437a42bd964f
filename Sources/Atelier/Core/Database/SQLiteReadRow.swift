import Foundation
import SQLKit
import SQLiteKit
import SQLiteNIO

/// A row read on the read pool (`SQLiteReadConnection`), decoded as SQLiteKit decodes its own rows.
/// Strings, integers and doubles stored as such are handed over directly: SQLiteKit's decoder
/// first asks the runtime whether the type converts itself (a protocol conformance look-up), for
/// every column of every row, and the product readers take hundreds of columns per page.
struct SQLiteReadRow: SQLRow {
    /// A statement's column names and where each is, shared by all its rows.
    final class Columns: Sendable {
        let names: [String]
        let index: [String: Int]

        init(names: [String]) {
            self.names = names
            // The first of two same-named columns wins, as in SQLiteKit.
            index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    struct MissingColumn: Error, CustomStringConvertible {
        let column: String
        var description: String { "no column \(column) in the row" }
    }

    let columns: Columns
    let values: [SQLiteData]

    private static let decoder = SQLiteDataDecoder()

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.index[column] else { return true }
        return values[index] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.index[column] else { throw MissingColumn(column: column) }
        let value = values[index]
        switch value {
        case .text(let text) where D.self == String.self: return unsafeBitCast(text, to: D.self)
        case .integer(let number) where D.self == Int.self: return unsafeBitCast(number, to: D.self)
        case .float(let number) where D.self == Double.self: return unsafeBitCast(number, to: D.self)
        default: return try Self.decoder.decode(D.self, from: value)
        }
    }
}
