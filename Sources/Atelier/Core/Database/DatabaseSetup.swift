import FluentPostgresDriver
import SQLKit
import FluentSQLiteDriver
import Vapor

public enum DatabaseSetup {
    /// Creates the configured PostgreSQL schema (the connections' search path names it).
    /// On SQLite files, also switches to write-ahead logging (it stays set in the file): readers
    /// then never wait for the writer, nor the writer for readers.
    static func prepareSchema(_ app: Application, config: AppConfig) async throws {
        guard let sql = app.db as? any SQLDatabase else { return }
        if case .sqliteFile = config.database {
            try await sql.raw("PRAGMA journal_mode=WAL").run()
        }
        guard let schema = config.databaseSchema else { return }
        try await sql.raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
    }

    /// Drops the configured schema and everything in it (tests, after they ran).
    public static func dropSchema(_ app: Application) async throws {
        guard let schema = app.core.config.databaseSchema, let sql = app.db as? any SQLDatabase else { return }
        try await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
    }

    static func configure(_ app: Application, config: AppConfig) throws {
        switch config.database {
        case .sqliteMemory:
            app.databases.use(.sqlite(.memory, maxConnectionsPerEventLoop: 1), as: .sqlite)
        case .sqliteFile(let path):
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            app.databases.use(.sqlite(.file(path), maxConnectionsPerEventLoop: connectionsPerEventLoop(config)), as: .sqlite)
        case .postgres(let url):
            var configuration = try SQLPostgresConfiguration(url: url)
            configuration.searchPath = config.databaseSchema.map { [$0] }
            PostgresConnectionName.tag(&configuration.coreConfiguration, as: "pool")
            app.databases.use(
                .postgres(
                    configuration: configuration,
                    maxConnectionsPerEventLoop: connectionsPerEventLoop(config),
                    connectionPoolTimeout: .seconds(10)),
                as: .psql)
            if let readURL = config.databaseReadURL {
                var replica = try SQLPostgresConfiguration(url: readURL)
                replica.searchPath = config.databaseSchema.map { [$0] }
                PostgresConnectionName.tag(&replica.coreConfiguration, as: "replica")
                app.databases.use(
                    .postgres(configuration: replica, maxConnectionsPerEventLoop: connectionsPerEventLoop(config), connectionPoolTimeout: .seconds(5)),
                    as: ReadReplica.databaseID, isDefault: false)
            }
        }
    }

    /// `DATABASE_POOL_SIZE` connections in all, spread over the event loops.
    private static func connectionsPerEventLoop(_ config: AppConfig) -> Int {
        max(1, config.databasePoolSize / max(1, System.coreCount))
    }
}
