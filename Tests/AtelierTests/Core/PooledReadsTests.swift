import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VaporTesting

@testable import Atelier

/// On a SQLite file, read-only requests run their raw SQL on Atelier's own read connections
/// (`SQLiteReadPool`), each statement on a connection of its own.
@Suite("Reads of read-only requests on SQLite")
struct PooledReadsTests {
    private func request(_ t: TestApp) -> Request {
        Request(application: t.app, method: .GET, url: "/", on: t.app.eventLoopGroup.next())
    }

    @Test("a read does not wait for the connection the request holds, and statements run side by side")
    func ownConnections() async throws {
        try await TestApp.with { t in
            guard t.app.atelier.sqliteReads != nil else { return }
            let req = request(t)
            let reads = req.readDatabase.sql
            // Fluent keeps one connection per event loop: while it is taken, a read on it would wait
            // for the pool's timeout and fail.
            let answer = try await req.db.withConnection { _ in
                try await reads.raw("SELECT 41 + 1 AS n").first()?.decode(column: "n", as: Int.self)
            }
            #expect(answer == 42)
            // More reads at once than the pool has connections (two in tests): they wait their turn.
            let sums = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<6 {
                    group.addTask { try await reads.raw("SELECT \(literal: i) + 1 AS n").first()!.decode(column: "n", as: Int.self) }
                }
                return try await group.reduce(0, +)
            }
            #expect(sums == 21)
        }
    }

    @Test("a read sees every write committed before it; a failed statement leaves the pool usable")
    func seesCommittedWrites() async throws {
        try await TestApp.with { t in
            let session = try await t.signUp(name: "Before")
            let userID = try #require(UUID(uuidString: session.user.id))
            let req = request(t)
            let reads = req.readDatabase
            func name() async throws -> String? {
                try await reads.sql.raw("SELECT display_name FROM users WHERE id = \(bind: userID)")
                    .first()?.decode(column: "display_name", as: String.self)
            }
            #expect(try await name() == "Before")
            try await req.db.sql.update("users").set("display_name", to: "After").where("id", .equal, userID).run()
            #expect(try await name() == "After")

            await #expect(throws: (any Error).self) { try await reads.sql.raw("SELECT nothing FROM nowhere").all() }
            #expect(try await name() == "After")
            // Model queries and transactions go through Fluent's database.
            #expect(try await User.find(userID, on: reads)?.displayName == "After")
            let counted = try await reads.transaction { tx in try await User.query(on: tx).filter(\.$id == userID).count() }
            #expect(counted == 1)
        }
    }

    @Test("reads run on threads of their own, not queued with Fluent's statements (every write) on the application's thread pool")
    func ownThreads() async throws {
        try await TestApp.with { t in
            guard t.app.atelier.sqliteReads != nil else { return }
            let reads = request(t).readDatabase.sql
            // Every thread of the application's pool held until the read has finished (or 5 s).
            let threads = System.coreCount  // the application's pool: NIOSingletons' blocking pool, one thread per core
            let started = NIOLockedValueBox(0)
            let release = DispatchSemaphore(value: 0)
            let held = (0..<threads).map { _ in
                t.app.threadPool.runIfActive(eventLoop: t.app.eventLoopGroup.next()) {
                    started.withLockedValue { $0 += 1 }
                    _ = release.wait(timeout: .now() + 5)
                }
            }
            while started.withLockedValue({ $0 }) < threads { try await Task.sleep(for: .milliseconds(5)) }
            let clock = ContinuousClock()
            let began = clock.now
            let answer = try await reads.raw("SELECT 41 + 1 AS n").first()?.decode(column: "n", as: Int.self)
            let took = clock.now - began
            for _ in 0..<threads { release.signal() }
            for future in held { try await future.get() }
            #expect(answer == 42)
            #expect(took < .seconds(2), "the read waited for the application's threads: \(took)")
        }
    }
}
