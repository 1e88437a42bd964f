import Logging
import PostgresKit
import PostgresNIO

/// Migrations run one at a time: within a process (several applications in tests and tools) by a
/// semaphore, and across instances on PostgreSQL by a session advisory lock held on a connection
/// of its own, so instances started at once wait for the first and then find nothing to do.
enum MigrationLock {
    private static let inProcess = AsyncSemaphore(permits: 1)
    /// Any fixed number; "atelier" in ASCII.
    static let key: Int64 = 0x6174_656C_6965_72

    static func run(config: AppConfig, logger: Logger, _ body: () async throws -> Void) async throws {
        try await inProcess.run {
            guard let url = config.sessionDatabaseURL else { return try await body() }
            var configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
            PostgresConnectionName.tag(&configuration, as: "migrate")
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            do {
                // Held by this connection's session: it lasts until unlocked or the connection dies.
                try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
                try await body()
                try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
    }
}
