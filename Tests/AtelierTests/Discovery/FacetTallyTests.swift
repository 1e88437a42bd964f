import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// `facet_tally`, the SQLite aggregate that counts a search's facets in one pass (issue 19): its
/// counts must be those of the rows, on Fluent's connections and on the read pool's alike.
@Suite("Discovery: facets tallied in SQLite")
struct FacetTallyTests {
    @Test("numbers, ids as text, NULLs and comma-joined colours are counted; no rows give NULL; every connection has it")
    func tally() async throws {
        try await TestApp.with { t in
            guard t.app.db.sql.dialect.name == "sqlite" else { return }
            let a = UUID().idString, b = UUID().idString
            let rows: SQLQueryString = """
                SELECT 7 AS brand, 'c1' AS category, \(bind: a) AS store, 'red,blue' AS colors
                UNION ALL SELECT NULL, 'c1', \(bind: b), 'red'
                UNION ALL SELECT 7, 'c2', \(bind: a), ''
                UNION ALL SELECT 12, 'c1', \(bind: a), 'red,,green,'
                UNION ALL SELECT 7, NULL, \(bind: b), NULL
                """
            let expected = FacetTally(
                brands: ["7": 3, "12": 1], categories: ["c1": 3, "c2": 1], stores: [a: 3, b: 2],
                colors: ["red": 3, "blue": 1, "green": 1])
            let req = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
            // Fluent's connection, and the read pool's when the app has one (a SQLite file).
            var databases = [t.app.db.sql]
            if t.app.atelier.sqliteReads != nil { databases.append(req.readDatabase.sql) }
            for sql in databases {
                let row = try #require(try await sql.raw("""
                    SELECT COUNT(*) AS n, facet_tally(brand, category, store, colors) AS tally FROM (\(rows))
                    """).first())
                #expect(try row.decode(column: "n", as: Int.self) == 5)
                let record = try #require(try row.decode(column: "tally", as: Data?.self))
                let tally = try FacetTally(record: record)
                #expect(tally == expected, "\(type(of: sql))")

                let none = try #require(try await sql.raw("""
                    SELECT COUNT(*) AS n, facet_tally(brand, category, store, colors) AS tally FROM (\(rows)) WHERE brand = 99
                    """).first())
                #expect(try none.decode(column: "n", as: Int.self) == 0)
                #expect(try none.decodeNil(column: "tally"))
                // Per group, as any aggregate: each group's own counts.
                let grouped = try await sql.raw("""
                    SELECT store, facet_tally(brand, category, store, colors) AS tally FROM (\(rows)) GROUP BY store ORDER BY store
                    """).all()
                #expect(grouped.count == 2)
                // A value that is no facet number or id is an error, not a count left out.
                await #expect(throws: (any Error).self) {
                    try await sql.raw("SELECT facet_tally(x'00ff', 'c1', 's1', 'red') AS tally").first()
                }
                await #expect(throws: (any Error).self) {
                    try await sql.raw("SELECT facet_tally(7, 1.5, 's1', 'red') AS tally").first()
                }
                for group in grouped {
                    let store = try group.decode(column: "store", as: String.self)
                    let counts = try FacetTally(record: group.decode(column: "tally", as: Data.self))
                    #expect(counts.stores == [store: store == a ? 3 : 2])
                }
            }
        }
    }

    @Test("its record reads back as the counts it holds; a record cut short or running on is an error")
    func record() throws {
        let tally = FacetTally(
            brands: ["7": 3, "12": 70_000], categories: [:], stores: [UUID().idString: 2],
            colors: ["red": 1, "grön": 4, "": 1])
        #expect(try FacetTally(record: tally.record) == tally)
        #expect(try FacetTally(record: FacetTally().record) == FacetTally())
        let bytes = tally.record
        for cut in [0, 3, 4, bytes.count / 2, bytes.count - 1] {
            #expect(throws: FacetTally.MalformedRecord.self, "cut at \(cut)") { try FacetTally(record: bytes.prefix(cut)) }
        }
        #expect(throws: FacetTally.MalformedRecord.self) { try FacetTally(record: bytes + [0]) }
    }
}
