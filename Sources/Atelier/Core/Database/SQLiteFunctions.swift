import VaporCSQLite

/// SQL functions of Atelier's own, on every SQLite connection the process opens (Fluent's and the
/// read pool's alike) through SQLite's automatic extensions: a statement that calls one runs on
/// any connection. Registered once, before the first connection opens (`DatabaseSetup.configure`).
/// The search's facets (`FacetTally`) and its rank (`FullTextRank`).
enum SQLiteFunctions {
    static func register() {
        precondition(registered == SQLITE_OK, "SQLite refused the automatic extension: \(registered)")
    }

    private static let registered: Int32 = sqlite_nio_sqlite3_auto_extension(unsafeBitCast(installAll, to: (@convention(c) () -> Void).self))

    /// Called by SQLite as it opens each connection; an error fails the opening.
    private static let installAll: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, OpaquePointer?) -> Int32 = {
        connection, _, _ in
        let rc = FacetTally.install(on: connection)
        return rc == SQLITE_OK ? FullTextRank.install(on: connection) : rc
    }

    /// For a value handed to SQLite (bound, or a function's result): SQLite copies it before the
    /// call returns.
    static let copied = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
