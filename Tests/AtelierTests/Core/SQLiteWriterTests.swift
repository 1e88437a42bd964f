import Fluent
import Foundation
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// `SQLiteWriter`: a write transaction in one trip to a connection of Atelier's own (issue 19).
@Suite("Write transactions on the SQLite writer's connection")
struct SQLiteWriterTests {
    @Test("a transaction is one trip and commits all of its statements, or, when one fails, none; the connection writes on afterwards")
    func commitsOrRollsBack() async throws {
        try await TestApp.with { t in
            guard let writer = t.app.atelier.sqliteWriter else { return }
            let sql = t.app.db as! any SQLDatabase
            try await sql.raw("CREATE TABLE writer_probe (n INTEGER PRIMARY KEY)").run()
            try await sql.raw("CREATE TABLE writer_probe_child (n INTEGER REFERENCES writer_probe (n))").run()
            try await sql.raw("CREATE TABLE writer_probe_late (n INTEGER REFERENCES writer_probe (n) DEFERRABLE INITIALLY DEFERRED)").run()
            func count(_ table: String) async throws -> Int {
                try await sql.raw("SELECT count(*) AS c FROM \(ident: table)").first()!.decode(column: "c", as: Int.self)
            }
            let before = writer.trips
            let inserted = try await writer.transaction(dialectOf: sql) { rows in
                try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 1)), (\(bind: 2)) RETURNING n" as SQLQueryString).count
                    + rows("INSERT INTO writer_probe_child (n) VALUES (\(bind: 2)) RETURNING n" as SQLQueryString).count
            }
            #expect(inserted == 3 && writer.trips == before + 1)
            #expect(try await count("writer_probe") == 2)

            // The second statement breaks the key: the first one's row goes too.
            await #expect(throws: (any Error).self) {
                try await writer.transaction(dialectOf: sql) { rows in
                    _ = try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 3))" as SQLQueryString)
                    _ = try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 1))" as SQLQueryString)
                }
            }
            #expect(try await count("writer_probe") == 2)
            // Foreign keys hold on this connection as on Fluent's.
            await #expect(throws: (any Error).self) {
                try await writer.transaction(dialectOf: sql) { rows in
                    _ = try rows("INSERT INTO writer_probe_child (n) VALUES (\(bind: 99))" as SQLQueryString)
                }
            }
            #expect(try await count("writer_probe_child") == 1)
            // A key checked at COMMIT: the COMMIT fails, the transaction is rolled back, nothing stays.
            await #expect(throws: (any Error).self) {
                try await writer.transaction(dialectOf: sql) { rows in
                    _ = try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 6))" as SQLQueryString)
                    _ = try rows("INSERT INTO writer_probe_late (n) VALUES (\(bind: 98))" as SQLQueryString)
                }
            }
            #expect(try await count("writer_probe") == 2)
            #expect(try await count("writer_probe_late") == 0)
            // An error thrown by the body between statements rolls back too.
            struct Stop: Error {}
            await #expect(throws: Stop.self) {
                try await writer.transaction(dialectOf: sql) { rows in
                    _ = try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 4))" as SQLQueryString)
                    throw Stop()
                }
            }
            #expect(try await count("writer_probe") == 2)
            // And the connection is left without a transaction: the next one commits.
            try await writer.transaction(dialectOf: sql) { rows in
                _ = try rows("INSERT INTO writer_probe (n) VALUES (\(bind: 5))" as SQLQueryString)
            }
            #expect(try await count("writer_probe") == 3)
            #expect(writer.trips == before + 6)
        }
    }

    @Test("the writer's commits leave the log's checkpoints to a thread of their own, and the log stays near SQLite's own size")
    func checkpointsElsewhere() async throws {
        try await TestApp.with { t in
            guard let writer = t.app.atelier.sqliteWriter, case .sqliteFile(let path) = t.app.atelier.config.database else { return }
            let sql = t.app.db as! any SQLDatabase
            try await sql.raw("CREATE TABLE writer_wal_probe (n INTEGER PRIMARY KEY, b BLOB)").run()
            let pageSize = try await sql.raw("PRAGMA page_size").first()!.decode(column: "page_size", as: Int.self)
            // About 6 000 pages through the log, a commit of ten at a time, as like batches come.
            for batch in 0..<600 {
                try await writer.transaction(dialectOf: sql) { rows in
                    for index in 0..<10 {
                        _ = try rows("INSERT INTO writer_wal_probe (n, b) VALUES (\(bind: batch * 10 + index), zeroblob(\(bind: pageSize / 2 + 100)))" as SQLQueryString)
                    }
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            // SQLite's automatic checkpoint is off on the writer's connection: unless the checkpoints
            // ran elsewhere and the log started over, it holds every one of those pages.
            let logPages = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) / pageSize
            #expect(logPages < 3_000, "the log holds \(logPages) pages")
            #expect(try await sql.raw("SELECT count(*) AS c FROM writer_wal_probe").first()!.decode(column: "c", as: Int.self) == 6_000)
        }
    }

    @Test("a commit past the mark asks for a checkpoint elsewhere; far past it, the committing connection checkpoints itself")
    func checkpointMarks() async {
        // An empty file is an empty database: the checkpoint asked for finds nothing to do.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-checkpoint-\(UUID()).sqlite").path
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let checkpointer = WALCheckpointer(path: path)
        #expect(!checkpointer.committed(walPages: 10))
        #expect(!checkpointer.committed(walPages: WALCheckpointer.pages))
        #expect(checkpointer.committed(walPages: WALCheckpointer.inlineAfter))
        await checkpointer.close()
    }

    @Test("SQLite's lock held past the busy timeout is a 503 with Retry-After, another SQLite error is not")
    func busyIsTemporary() throws {
        let (sqliteBusy, sqliteConstraint): (Int32, Int32) = (5, 19)  // SQLite's result codes
        let busy = SQLiteReadConnection.Failure(code: sqliteBusy, message: "database is locked")
        let problem = try #require(TemporaryFailure.problem(for: busy))
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.headers.contains { $0.0 == "Retry-After" })
        // An extended code (SQLITE_BUSY_SNAPSHOT) is busy too; a constraint is our bug or the caller's.
        #expect(TemporaryFailure.problem(for: SQLiteReadConnection.Failure(code: sqliteBusy | (2 << 8), message: "")) != nil)
        #expect(TemporaryFailure.problem(for: SQLiteReadConnection.Failure(code: sqliteConstraint, message: "")) == nil)
    }
}
