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
            let sql = t.app.db.sql
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

    @Test("the writer's commits leave the log's checkpoints to a thread of their own: with gaps between commits the log starts over")
    func checkpointsElsewhere() async throws {
        try await TestApp.with { t in
            guard let writer = t.app.atelier.sqliteWriter else { return }
            let sql = t.app.db.sql
            let probe = try await WALProbe(sql)
            // About 3 000 pages through the log, ten at a commit, as like batches come. SQLite's
            // automatic checkpoint is off on the writer's connection: unless a checkpoint ran
            // elsewhere, all of it, the log never starts over and only grows.
            var restarts = 0
            var pages: Int32 = 0
            for batch in 0..<300 {
                try await probe.commit(batch, on: writer)
                let now = writer.checkpointer.checkpoints.pagesAtLastCommit
                if now < pages { restarts += 1 }
                pages = now
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(try await probe.rows() == 3_000)
            #expect(restarts > 0, "the log never started over: it holds \(pages) pages")
            #expect(pages < 2_000)
            #expect(writer.checkpointer.checkpoints.background > 0)
            #expect(writer.checkpointer.checkpoints.inline == 0)
        }
    }

    @Test("commits back to back keep the log bounded: past the mark the writer checkpoints itself and the log starts over")
    func logStaysBounded() async throws {
        try await TestApp.with { t in
            guard let writer = t.app.atelier.sqliteWriter, case .sqliteFile(let path) = t.app.atelier.config.database else { return }
            let sql = t.app.db.sql
            let probe = try await WALProbe(sql)
            // About 11 000 pages with no gap for a background checkpoint to be complete.
            for batch in 0..<1_100 { try await probe.commit(batch, on: writer) }
            #expect(try await probe.rows() == 11_000)
            let logPages = try #require(FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) / probe.pageSize
            // Past the mark, a background checkpoint still running finishes first (a few commits).
            #expect(logPages <= Int(WALCheckpointer.inlineAfter + WALCheckpointer.pages), "the log holds \(logPages) pages")
            #expect(writer.checkpointer.checkpoints.pagesAtLastCommit < WALCheckpointer.inlineAfter)
        }
    }

    @Test("a commit past the mark asks for a checkpoint elsewhere; far past it, the committing connection checkpoints itself")
    func checkpointMarks() async {
        // An empty file is an empty database: the checkpoint asked for finds nothing to do.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atelier-checkpoint-\(UUID()).sqlite").path
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let checkpointer = WALCheckpointer(path: path)
        #expect(checkpointer.committed(walPages: WALCheckpointer.inlineAfter))
        #expect(!checkpointer.committed(walPages: 10))
        #expect(!checkpointer.committed(walPages: WALCheckpointer.pages))
        await checkpointer.close()
        #expect(checkpointer.checkpoints.background == 1)
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

/// A table whose rows each fill a page of the log: a commit of ten writes about ten pages.
private struct WALProbe {
    let sql: any SQLDatabase
    let pageSize: Int

    init(_ sql: any SQLDatabase) async throws {
        self.sql = sql
        try await sql.raw("CREATE TABLE writer_wal_probe (n INTEGER PRIMARY KEY, b BLOB)").run()
        pageSize = try await sql.raw("PRAGMA page_size").first()!.decode(column: "page_size", as: Int.self)
    }

    func commit(_ batch: Int, on writer: SQLiteWriter, rows: Int = 10) async throws {
        let size = pageSize / 2 + 100
        try await writer.transaction(dialectOf: sql) { run in
            for index in 0..<rows {
                _ = try run("INSERT INTO writer_wal_probe (n, b) VALUES (\(bind: batch * 10 + index), zeroblob(\(bind: size)))" as SQLQueryString)
            }
        }
    }

    func rows() async throws -> Int {
        try await sql.raw("SELECT count(*) AS c FROM writer_wal_probe").first()!.decode(column: "c", as: Int.self)
    }
}
