import Fluent
import FluentSQLiteDriver
import Vapor

/// A second connection for a read that a request runs beside another one.
///
/// FluentSQLiteDriver keeps one SQLite connection per event loop whatever pool size is asked for
/// (it drops `maxConnectionsPerEventLoop` on purpose), so two statements of one request started
/// together run one after the other on that connection: a first search ranked its page and then
/// counted its facets, one core idle. A second registration of the same file gives each event
/// loop a second connection; SQLite in WAL mode lets readers on several connections run at once.
/// Only reads go there: writes keep to the default database, whose write transactions take turns.
/// PostgreSQL's pool opens as many connections per event loop as configured, so it needs none.
enum SideReads {
    static let databaseID = DatabaseID(string: "sqlite-side")

    static func configure(_ app: Application, path: String) {
        app.databases.use(.sqlite(.file(path)), as: databaseID, isDefault: false)
    }
}

extension Request {
    /// The database for a read to run beside another on `db`: a second SQLite connection when
    /// `db` is the default SQLite file outside a transaction; otherwise `db` itself.
    func sideReader(for db: any Database) -> any Database {
        guard case .sqliteFile = atelier.config.database, !db.inTransaction else { return db }
        return self.db(SideReads.databaseID)
    }
}
