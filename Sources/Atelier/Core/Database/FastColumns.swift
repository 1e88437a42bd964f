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
