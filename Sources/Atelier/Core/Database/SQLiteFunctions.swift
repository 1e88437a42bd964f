import VaporCSQLite

/// SQL functions of Atelier's own, on every SQLite connection the process opens (Fluent's and the
/// read pool's alike) through SQLite's automatic extensions: a statement that calls one runs on
/// any connection. A domain registers its installer before the first connection opens (the
/// composition root does it ahead of `DatabaseSetup.configure`).
enum SQLiteFunctions {
    /// Called by SQLite as it opens each connection, with the connection first; an error fails the opening.
    typealias Installer = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, OpaquePointer?) -> Int32

    /// Runs `installer` on every connection opened from now on. SQLite keeps one registration per
    /// installer, so registering again (each test's application) changes nothing.
    static func installOnEveryConnection(_ installer: Installer) {
        let rc = sqlite_nio_sqlite3_auto_extension(unsafeBitCast(installer, to: (@convention(c) () -> Void).self))
        precondition(rc == SQLITE_OK, "SQLite refused the automatic extension: \(rc)")
    }

    /// For a value handed to SQLite (bound, or a function's result): SQLite copies it before the
    /// call returns.
    static let copied = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
