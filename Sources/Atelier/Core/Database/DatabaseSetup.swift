import FluentPostgresDriver
import FluentSQLiteDriver
import Vapor

enum DatabaseSetup {
    static func configure(_ app: Application, config: AppConfig) throws {
        switch config.database {
        case .sqliteMemory:
            app.databases.use(.sqlite(.memory, maxConnectionsPerEventLoop: 1), as: .sqlite)
        case .sqliteFile(let path):
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            app.databases.use(.sqlite(.file(path), maxConnectionsPerEventLoop: 1), as: .sqlite)
        case .postgres(let url):
            var configuration = try SQLPostgresConfiguration(url: url)
            configuration.searchPath = nil
            app.databases.use(
                .postgres(
                    configuration: configuration,
                    maxConnectionsPerEventLoop: max(1, config.databasePoolSize / max(1, System.coreCount)),
                    connectionPoolTimeout: .seconds(10)),
                as: .psql)
        }
    }

}
