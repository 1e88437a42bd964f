import SQLKit
import Vapor
import Testing

@testable import Atelier

/// `KeptStatements` writes a statement's text once per shape and binds each call's own values.
@Suite("Statements whose text is kept per shape")
struct KeptStatementsTests {
    @Test("a kept text binds each call's values, per shape, on the read pool and on Fluent's database")
    func keptTexts() async throws {
        try await TestApp.with { t in
            let request = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
            // One store for both, as `ProductViewReader` shares one: on SQLite both databases write the same text.
            let kept = KeptStatements<Int>(limit: 2)
            for db in [request.readDatabase.sql, t.app.db.sql] {
                // Each call with its own values; the third shape passes the limit of two, so the texts are written again.
                for values in [[2], [3], [1, 4], [2, 3], [1, 2, 4], [4]] {
                    let read = try await Self.numbers(values, kept, db)
                    #expect(read == values, "the kept text with this call's values")
                }
            }
        }
    }

    /// The numbers 1–4 that are among `values`, read with a statement kept per count of values.
    static func numbers(_ values: [Int], _ kept: KeptStatements<Int>, _ db: any SQLDatabase) async throws -> [Int] {
        let statement = kept.statement(values.count, on: db, binds: values) {
            "SELECT n FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) AS numbers WHERE n IN (\(binds: values)) ORDER BY n"
        }
        return try await db.readAll([statement])[0].map { try $0.decode(column: "n", as: Int.self) }
    }
}
