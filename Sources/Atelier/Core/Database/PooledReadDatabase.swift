import Fluent
import Vapor
import SQLiteKit
import SQLKit

/// The database a read-only request reads from on a SQLite file: raw SQL (the hot paths: cards,
/// product views, feeds, search) runs on `SQLiteReadPool`, each statement on a connection of its
/// own; model queries, transactions and everything else go to Fluent's database.
struct PooledReadDatabase: Database, SQLDatabase {
    let base: any Database
    let pool: SQLiteReadPool
    /// Fluent's, asked once: SQLKit asks for it at every identifier and value it writes, and through
    /// Fluent's database that was 1.4 % of a product page's samples (issue 19).
    let dialect: any SQLDialect

    init(base: any Database, pool: SQLiteReadPool) {
        self.base = base
        self.pool = pool
        dialect = base.sql.dialect
    }

    private var baseSQL: any SQLDatabase { base.sql }

    var context: DatabaseContext { base.context }
    var inTransaction: Bool { base.inTransaction }

    func execute(query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> ()) -> EventLoopFuture<Void> {
        base.execute(query: query, onOutput: onOutput)
    }

    func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> { base.execute(schema: schema) }
    func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> { base.execute(enum: `enum`) }

    func transaction<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        base.transaction(closure)
    }

    func withConnection<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        base.withConnection(closure)
    }

    var version: (any SQLDatabaseReportedVersion)? { baseSQL.version }
    var queryLogLevel: Logger.Level? { baseSQL.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        let (sql, binds) = try statement(query)
        for row in try await pool.withConnection({ try await $0.query(sql, binds) }) { onRow(row) }
    }

    private func statement(_ query: any SQLExpression) throws -> (sql: String, binds: [SQLiteData]) {
        let statement = try SQLiteStatementText.make(query, for: self)
        // The statement only: bound values may be personal data.
        if let level = queryLogLevel { logger.log(level: level, "\(statement.sql)") }
        return statement
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await baseSQL.withSession(closure)
    }
}

extension PooledReadDatabase: BatchedReads {
    func rows(of queries: [any SQLExpression]) async throws -> [[any SQLRow]] {
        let statements = try queries.map { try statement($0) }
        return try await pool.withConnection { try await $0.query(all: statements) }
    }
}

extension Request {
    /// The database of a read-only request without a replica: on a SQLite file, Fluent's with raw
    /// SQL on Atelier's own read connections (`PooledReadDatabase`); otherwise Fluent's.
    var readDatabase: any Database {
        core.sqliteReads.map { PooledReadDatabase(base: db, pool: $0) } ?? db
    }
}
