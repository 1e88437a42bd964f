import NIOConcurrencyHelpers
import SQLKit

/// A whole statement whose SQL text was written before (`KeptStatements`).
struct KeptStatement: SQLExpression {
    let sql: String
    let binds: [any Encodable & Sendable]

    /// Only as a whole statement: its placeholders are numbered from the first bind.
    func serialize(to serializer: inout SQLSerializer) {
        precondition(serializer.sql.isEmpty && serializer.binds.isEmpty, "a kept statement is written as a whole statement")
        serializer.sql = sql
        serializer.binds = binds
    }
}

/// Statements whose SQL text is written once per shape and dialect (issue 19). SQLKit writes a
/// query's text anew each time, quoting every identifier one by one: the product page's three
/// statements, whose text differs only in how many ids they take, were 4 % of its CPU. A shape
/// names everything that decides the text besides the dialect; the values are bound as they come.
final class KeptStatements<Shape: Hashable & Sendable>: Sendable {
    private struct Key: Hashable {
        var shape: Shape
        var dialect: String
    }

    private let texts = NIOLockedValueBox<[Key: String]>([:])
    /// Shapes include counts of ids: past this many texts they are written again from the start.
    private let limit: Int

    init(limit: Int = 256) {
        self.limit = limit
    }

    /// `query` written once for `shape` on `database`'s dialect, then its text with `binds`, which must
    /// be the values `query` binds, in order. Debug builds (the tests) write the query each time and
    /// check that the kept text and the binds are what it writes.
    func statement(_ shape: Shape, on database: any SQLDatabase, binds: [any Encodable & Sendable],
                   _ query: () -> SQLQueryString) -> KeptStatement {
        let key = Key(shape: shape, dialect: database.dialect.name)
        let kept = texts.withLockedValue { $0[key] }
        #if DEBUG
        let written: KeptStatement? = Self.write(query(), on: database)
        assert(kept == nil || written?.sql == kept, "the shape \(shape) does not decide the text of its statement")
        assert(written?.binds.map { "\($0)" } == binds.map { "\($0)" }, "the binds given for \(shape) are not the statement's")
        #else
        let written: KeptStatement? = nil
        #endif
        if let kept { return KeptStatement(sql: kept, binds: binds) }
        let text = (written ?? Self.write(query(), on: database)).sql
        texts.withLockedValue { texts in
            if texts.count >= limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
        return KeptStatement(sql: text, binds: binds)
    }

    private static func write(_ query: SQLQueryString, on database: any SQLDatabase) -> KeptStatement {
        var serializer = SQLSerializer(database: database)
        query.serialize(to: &serializer)
        return KeptStatement(sql: serializer.sql, binds: serializer.binds)
    }
}
