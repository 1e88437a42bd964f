import Fluent
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// A read a request runs beside another (a search's facets beside its page) gets a connection of
/// its own on SQLite, where Fluent's driver keeps one per event loop.
@Suite("Reads side by side")
struct SideReadsTests {
    @Test("on SQLite, a read beside another does not wait for the connection the request holds")
    func secondConnection() async throws {
        try await TestApp.with { t in
            guard case .sqliteFile = t.app.atelier.config.database else { return }
            let req = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
            let side = req.sideReader(for: req.db)
            // The event loop's only default connection stays taken while the side read runs: on the
            // same pool, the read would wait for it until the pool's timeout and fail.
            let answer = try await req.db.withConnection { _ in
                try await (side as! any SQLDatabase).raw("SELECT 41 + 1 AS n").first()?.decode(column: "n", as: Int.self)
            }
            #expect(answer == 42)
        }
    }

    @Test("inside a transaction, a read beside it is the transaction's own (it sees what the transaction wrote)")
    func insideTransaction() async throws {
        try await TestApp.with { t in
            let req = Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
            let seen = try await req.db.transaction { tx in
                let sql = tx as! any SQLDatabase
                try await sql.raw("CREATE TEMPORARY TABLE side_probe (x INTEGER)").run()
                try await sql.raw("INSERT INTO side_probe (x) VALUES (7)").run()
                let side = req.sideReader(for: tx) as! any SQLDatabase
                let x = try await side.raw("SELECT x FROM side_probe").first()?.decode(column: "x", as: Int.self)
                try await sql.raw("DROP TABLE side_probe").run()
                return x
            }
            #expect(seen == 7)
        }
    }
}
