import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// The read pool's connections keep their prepared statements (issue 19). A kept statement must
/// answer every later use with its own values, see every commit, and never hold back the WAL.
@Suite("Read connections with kept statements")
struct SQLiteReadConnectionTests {
    private func databases(_ t: TestApp) -> (reads: any SQLDatabase, writes: any SQLDatabase)? {
        guard t.app.atelier.sqliteReads != nil else { return nil }
        let req = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
        return (req.readDatabase.sql, t.app.db.sql)
    }

    @Test("a kept statement answers each use with that use's values, and rows decode as through Fluent's connection")
    func keptStatementsAndDecoding() async throws {
        try await TestApp.with { t in
            guard let (reads, writes) = databases(t) else { return }
            for i in [3, -7, 3] {
                let row = try #require(try await reads.raw("SELECT \(bind: i) * 2 AS n, \(bind: "x\(i)") AS s, \(bind: Optional<Int>.none) AS missing").first())
                #expect(try row.decode(column: "n", as: Int.self) == i * 2)
                #expect(try row.decode(column: "s", as: String.self) == "x\(i)")
                #expect(try row.decodeNil(column: "missing"))
                #expect(try row.decode(column: "missing", as: Int?.self) == nil)
            }
            // A statement is prepared once per connection and kept, whatever its values.
            let pool = try #require(t.app.atelier.sqliteReads)
            let (kept, prepared) = try await pool.withConnection { connection in
                let before = (connection.keptStatements, connection.preparedStatements)
                for i in 0..<3 { _ = try await connection.query("SELECT ? + 1 AS n", [.integer(i)]) }
                return (connection.keptStatements - before.0, connection.preparedStatements - before.1)
            }
            #expect(kept == 1 && prepared == 1)
            // A join whose plan looks at its values (constants carried across the join) is not
            // prepared again on each use either, and a use with too few values fails.
            let join = "SELECT m.name FROM _fluent_migrations m JOIN _fluent_migrations n ON n.id = m.id WHERE m.id = ? AND n.id = ?"
            let preparedAgain = try await pool.withConnection { connection in
                let before = connection.statementsPreparedAgain
                for _ in 0..<5 {
                    let id = UUID().uuidString
                    _ = try await connection.query(join, [.text(id), .text(id)])
                }
                await #expect(throws: SQLiteReadConnection.Failure.self) { try await connection.query(join, [.text("x")]) }
                return connection.statementsPreparedAgain - before
            }
            #expect(preparedAgain == 0)
            // The same statement through both connections: every type the readers use decodes alike.
            let id = UUID()
            let date = Date(timeIntervalSince1970: 1_800_000_123.25)
            let query: SQLQueryString = """
                SELECT \(bind: id) AS id, \(bind: date) AS at, \(bind: true) AS yes, \(bind: 2.5) AS half, \(bind: 7) AS seven,
                \(bind: Data([0, 1, 255])) AS bytes, 'naïve ✓' AS text, 4.0 AS four, NULL AS none
                """
            let ours = try #require(try await reads.raw(query).first())
            let fluents = try #require(try await writes.raw(query).first())
            #expect(ours.allColumns == fluents.allColumns)
            #expect(try ours.decode(column: "id", as: UUID.self) == fluents.decode(column: "id", as: UUID.self))
            #expect(try ours.decode(column: "at", as: Date.self) == fluents.decode(column: "at", as: Date.self))
            #expect(try ours.decode(column: "yes", as: Bool.self) == fluents.decode(column: "yes", as: Bool.self))
            #expect(try ours.decode(column: "half", as: Double.self) == 2.5)
            #expect(try ours.decode(column: "seven", as: Int.self) == 7)
            #expect(try ours.decode(column: "seven", as: Double.self) == fluents.decode(column: "seven", as: Double.self))
            #expect(try ours.decode(column: "four", as: Double.self) == 4.0)
            #expect(try ours.decode(column: "bytes", as: Data.self) == Data([0, 1, 255]))
            #expect(try ours.decode(column: "text", as: String.self) == "naïve ✓")
            #expect(try ours.decode(column: "none", as: String?.self) == nil)
            #expect(try ours.decodeNil(column: "not there"))
            #expect(throws: (any Error).self) { try ours.decode(column: "not there", as: Int.self) }
            #expect(throws: (any Error).self) { try ours.decode(column: "text", as: Int.self) }
        }
    }

    @Test("independent reads go to the read pool in one trip and answer as one by one")
    func batchedReads() async throws {
        try await TestApp.with { t in
            guard let (reads, writes) = databases(t), let pool = t.app.atelier.sqliteReads else { return }
            let queries: [SQLQueryString] = ["SELECT \(bind: 1) AS n", "SELECT 2 AS n UNION ALL SELECT 3", "SELECT 4 AS n WHERE 0"]
            let tripsBefore = try await pool.withConnection { $0.trips }
            let batched = try await reads.readAll(queries)
            #expect(try await pool.withConnection { $0.trips } == tripsBefore + 1, "one trip (the pool has two connections; the last used is handed out first)")
            let oneByOne = try await writes.readAll(queries)
            #expect(try batched.map { try $0.map { try $0.decode(column: "n", as: Int.self) } } == [[1], [2, 3], []])
            #expect(try oneByOne.map { try $0.map { try $0.decode(column: "n", as: Int.self) } } == [[1], [2, 3], []])
            // A product page reads its product, variants and photos in one trip.
            let f = try await t.catalogFixture()
            let product = try await t.product(.init(title: "Batched shirt", category: f.shirts, sizes: [("S", 1), ("M", 2)]), in: f.storeA, owner: f.ownerA)
            let before = try await pool.withConnection { $0.trips }
            let view = try #require(try await ProductViewReader(db: Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next()).readDatabase).views(ids: [product.id!, UUID()]).first)
            #expect(try await pool.withConnection { $0.trips } == before + 1)
            #expect(view.product.title == "Batched shirt" && view.variants.map(\.size) == ["S", "M"] && view.photos.count == 1)
        }
    }

    @Test("kept statements see every commit and every change of the schema, hold no read of the database between uses; more statements than are kept still answer")
    func freshAndReleased() async throws {
        try await TestApp.with { t in
            guard let (reads, writes) = databases(t), let pool = t.app.atelier.sqliteReads else { return }
            try await writes.raw("CREATE TABLE kept_probe (id INTEGER PRIMARY KEY, label TEXT NOT NULL)").run()
            for n in 1...3 {
                try await writes.raw("INSERT INTO kept_probe (label) VALUES (\(bind: "row \(n)"))").run()
                let count = try await reads.raw("SELECT COUNT(*) AS n FROM kept_probe").first()?.decode(column: "n", as: Int.self)
                #expect(count == n)
            }
            // A change of the schema (another instance migrating): a kept `SELECT *` answers with the new columns.
            let before = try #require(try await reads.raw("SELECT * FROM kept_probe WHERE id = \(bind: 1)").first())
            #expect(before.allColumns == ["id", "label"])
            try await writes.raw("ALTER TABLE kept_probe ADD COLUMN note TEXT NOT NULL DEFAULT 'new'").run()
            try await writes.raw("ALTER TABLE kept_probe DROP COLUMN label").run()
            let after = try #require(try await reads.raw("SELECT * FROM kept_probe WHERE id = \(bind: 1)").first())
            #expect(after.allColumns == ["id", "note"])
            #expect(try after.decode(column: "note", as: String.self) == "new")
            #expect(!after.contains(column: "label"))
            try await writes.raw("ALTER TABLE kept_probe ADD COLUMN label TEXT NOT NULL DEFAULT 'row'").run()
            // A statement that holds a read would keep the WAL from being emptied (busy = 1).
            let checkpoint = try #require(try await writes.raw("PRAGMA wal_checkpoint(TRUNCATE)").first())
            #expect(try checkpoint.decode(column: "busy", as: Int.self) == 0)
            // Past the number kept, statements are prepared anew and still answer.
            for n in 0..<(SQLiteReadConnection.statementLimit + 10) {
                let row = try await reads.raw("SELECT \(literal: n) AS n, label FROM kept_probe WHERE id = \(bind: 1)").first()
                #expect(try row?.decode(column: "n", as: Int.self) == n)
            }
            #expect(try await pool.withConnection { $0.keptStatements } <= SQLiteReadConnection.statementLimit)
            // A statement that fails when run (not when prepared) leaves its kept copy usable.
            let failing: SQLQueryString = "SELECT CAST(\(bind: "2") AS INTEGER) + (SELECT label FROM kept_probe WHERE id = \(bind: 1) AND abs(\(bind: Int.min)) > 0) AS n"
            await #expect(throws: (any Error).self) { try await reads.raw(failing).all() }
            let again = try await reads.raw("SELECT COUNT(*) AS n FROM kept_probe WHERE id > \(bind: 0)").first()?.decode(column: "n", as: Int.self)
            #expect(again == 3)
        }
    }
}
