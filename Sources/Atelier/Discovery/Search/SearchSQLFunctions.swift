import VaporCSQLite

/// The search's SQL functions on every SQLite connection: its facets (`FacetTally`) and its rank
/// (`FullTextRank`). Registered by the composition root before the database is configured.
enum SearchSQLFunctions {
    static func register() {
        SQLiteFunctions.installOnEveryConnection(install)
    }

    private static let install: SQLiteFunctions.Installer = { connection, _, _ in
        let rc = FacetTally.install(on: connection)
        return rc == SQLITE_OK ? FullTextRank.install(on: connection) : rc
    }
}
