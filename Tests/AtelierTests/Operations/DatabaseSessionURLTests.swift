import Foundation
import PostgresNIO
import Testing

@testable import Atelier

@Suite("Operations: the direct PostgreSQL URL for LISTEN and the migration lock, and connection names")
struct DatabaseSessionURLTests {
    @Test("LISTEN and the migration lock use DATABASE_LISTEN_URL when a pooler is in DATABASE_URL, else DATABASE_URL; none on SQLite")
    func sessionURL() throws {
        let pooled = "postgres://atelier:atelier@pgbouncer:6432/atelier"
        let direct = "postgres://atelier:atelier@primary:5432/atelier"
        #expect(try AppConfig.fromEnvironment(["DATABASE_URL": pooled, "DATABASE_LISTEN_URL": direct]).sessionDatabaseURL?.absoluteString == direct)
        #expect(try AppConfig.fromEnvironment(["DATABASE_URL": direct]).sessionDatabaseURL?.absoluteString == direct)
        #expect(try AppConfig.fromEnvironment(["DATABASE_URL": "sqlite::memory:"]).sessionDatabaseURL == nil)
        do {
            _ = try AppConfig.fromEnvironment(["DATABASE_URL": pooled, "DATABASE_LISTEN_URL": "mysql://primary/atelier"])
            Issue.record("a listen URL that is not PostgreSQL was accepted")
        } catch {
            #expect("\(error)".contains("DATABASE_LISTEN_URL"), "\(error)")
        }
    }

    @Test("every connection names its instance and use in application_name, within PostgreSQL's 63 bytes")
    func connectionName() {
        var configuration = PostgresConnection.Configuration(host: "localhost", username: "atelier", password: nil, database: "atelier", tls: .disable)
        configuration.options.additionalStartupParameters = [("application_name", "something else")]
        PostgresConnectionName.tag(&configuration, as: "listen")
        let names = configuration.options.additionalStartupParameters.filter { $0.0 == "application_name" }.map(\.1)
        #expect(names.count == 1)
        let name = names.first
        #expect(name?.hasPrefix("atelier listen ") == true && name?.hasSuffix(":\(ProcessInfo.processInfo.processIdentifier)") == true, "\(names)")
        #expect(PostgresConnectionName.name(String(repeating: "x", count: 100)).utf8.count <= 63)
    }
}
