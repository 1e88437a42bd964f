import Foundation
import Testing

@testable import Atelier

@Suite("PostgreSQL's tools run as child processes")
struct PostgresToolsTests {
    @Test("a tool that fails is reported with its exit status and its own error output; one that succeeds returns",
          .enabled(if: (try? PostgresTools.executable("pg_dump")) != nil, "PostgreSQL's client tools are not installed"))
    func failureAndSuccess() async throws {
        // Nothing listens on port 1: pg_dump exits with 1 and says why on its error output.
        let unreachable = try #require(URL(string: "postgres://atelier:secret@127.0.0.1:1/atelier"))
        do {
            try await PostgresTools.run("pg_dump", arguments: ["--file=/dev/null"], databaseURL: unreachable)
            Issue.record("pg_dump against a closed port succeeded")
        } catch let error as BackupError {
            #expect(error.description.hasPrefix("pg_dump failed (1): "))
            #expect(error.description.contains("127.0.0.1") && error.description.contains("port 1 "))
            #expect(!error.description.contains("secret"))
        }
        try await PostgresTools.run("pg_dump", arguments: ["--version"], databaseURL: unreachable)
    }
}
