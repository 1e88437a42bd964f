import SQLiteKit
import SQLKit

/// A statement's SQL text and values as SQLite takes them, written by SQLKit for `database`'s dialect.
enum SQLiteStatementText {
    static func make(_ query: any SQLExpression, for database: any SQLDatabase) throws -> (sql: String, binds: [SQLiteData]) {
        var serializer = SQLSerializer(database: database)
        query.serialize(to: &serializer)
        return (serializer.sql, try serializer.binds.map { try encoder.encode($0) })
    }

    private static let encoder = SQLiteDataEncoder()
}
