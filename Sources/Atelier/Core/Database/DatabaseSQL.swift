import FluentKit
import SQLKit

extension Database {
    /// The same database, for raw SQL through SQLKit. Both drivers Atelier runs on (SQLite and
    /// PostgreSQL) and its own read connections are SQL databases; this is the one place that says so.
    var sql: any SQLDatabase { self as! any SQLDatabase }
}
