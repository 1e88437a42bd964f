import NIOCore
import NIOPosix
import SQLiteNIO
import VaporCSQLite

/// One SQLite connection of the read pool, over sqlite-nio's own SQLite library (the same copy
/// Fluent uses: two copies in one process would break file locking), keeping its prepared
/// statements. sqlite-nio prepares every statement anew and keeps its statements internal;
/// parsing and planning a product page's statements was 11 % of its time (issue 19). A statement
/// is kept per distinct SQL text (a few dozen on the hot paths) and reset after each use, which also
/// ends its read of the database, so a kept statement never holds back the WAL.
///
/// Used by one task at a time (`SQLiteReadPool` hands it out); the work runs on the thread pool.
/// `SQLiteWriter` keeps one more for writes, its transactions in one hop too (`transaction`).
final class SQLiteReadConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let message: String
        var description: String { "SQLite error \(code): \(message)" }
        /// The database stayed locked for the whole busy timeout.
        var isBusy: Bool { code & 0xFF == SQLITE_BUSY }
    }

    /// Statements kept at most; past it the kept ones are finalized and the cache starts over.
    static let statementLimit = 64

    private var handle: OpaquePointer?
    private var statements: [String: KeptStatement] = [:]
    private let threadPool: NIOThreadPool
    /// What `onCommit` installed, kept alive until the connection closes.
    private var commitHook: Unmanaged<WALCheckpointer>?

    private final class KeptStatement {
        let handle: OpaquePointer
        /// The result's column names, read again only when SQLite has prepared the statement anew
        /// after a change of the schema (another instance migrating, say): `SELECT u.*` then has
        /// other columns.
        private(set) var columns: SQLiteReadRow.Columns
        private var preparedAnew: Int32

        init(handle: OpaquePointer) {
            self.handle = handle
            columns = Self.columns(of: handle)
            preparedAnew = sqlite_nio_sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
        }

        /// After a step: the columns as they are now.
        func refreshColumns() {
            let count = sqlite_nio_sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
            guard count != preparedAnew else { return }
            preparedAnew = count
            columns = Self.columns(of: handle)
        }

        private static func columns(of handle: OpaquePointer) -> SQLiteReadRow.Columns {
            .init(names: (0..<sqlite_nio_sqlite3_column_count(handle)).map { String(cString: sqlite_nio_sqlite3_column_name(handle, $0)) })
        }
    }

    private init(handle: OpaquePointer, threadPool: NIOThreadPool) {
        self.handle = handle
        self.threadPool = threadPool
    }

    static func open(path: String, threadPool: NIOThreadPool = .singleton) async throws -> SQLiteReadConnection {
        try await threadPool.runIfActive {
            var handle: OpaquePointer?
            let opened = sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, nil)
            guard opened == SQLITE_OK, let handle else {
                let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite_nio_sqlite3_close(handle)
                throw Failure(code: opened, message: "opening \(path): \(message)")
            }
            // A reader waits only while another connection recovers or restarts the WAL.
            sqlite_nio_sqlite3_busy_timeout(handle, 10_000)
            return SQLiteReadConnection(handle: handle, threadPool: threadPool)
        }
    }

    var isClosed: Bool { handle == nil }

    /// How many prepared statements the connection keeps now, how many it has prepared in all, and
    /// how many trips to the thread pool it has made.
    var keptStatements: Int { statements.count }
    private(set) var preparedStatements = 0
    /// How many times SQLite has prepared the kept statements again (after a change of the schema).
    var statementsPreparedAgain: Int {
        statements.values.reduce(0) { $0 + Int(sqlite_nio_sqlite3_stmt_status($1.handle, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }
    private(set) var trips = 0

    /// Every row of `sql` with `binds`, read on the thread pool in one hop.
    func query(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteReadRow] {
        try await query(all: [(sql, binds)])[0]
    }

    /// The rows of each statement, run one after another in one hop.
    func query(all statements: [(sql: String, binds: [SQLiteData])]) async throws -> [[SQLiteReadRow]] {
        try await threadPool.runIfActive {
            self.trips += 1
            return try statements.map { try self.run($0.sql, $0.binds) }
        }
    }

    /// `body` in one write transaction, in one hop to the thread pool: `BEGIN IMMEDIATE` (the write
    /// lock first, so nothing read in the body can be overtaken by another writer), the body's
    /// statements through `run`, `COMMIT`; when anything fails, `ROLLBACK` and the error.
    /// The body's statements are not kept: a batch's text differs with its size, and kept they would
    /// push the fixed ones out of the cache. If the transaction cannot be ended, the connection is
    /// closed, which ends it (its owner opens a new one): a transaction left open would hold SQLite's
    /// write lock against every other writer.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (_ run: (String, [SQLiteData]) throws -> [SQLiteReadRow]) throws -> T) async throws -> T {
        try await threadPool.runIfActive {
            self.trips += 1
            _ = try self.run("BEGIN IMMEDIATE", [])
            do {
                let result = try body { try self.run($0, $1, keep: false) }
                _ = try self.run("COMMIT", [])
                return result
            } catch {
                // A failed COMMIT can leave the transaction open (SQLITE_BUSY); ROLLBACK ends it either way.
                if let handle = self.handle, sqlite_nio_sqlite3_get_autocommit(handle) == 0 {
                    _ = try? self.run("ROLLBACK", [])
                    if sqlite_nio_sqlite3_get_autocommit(handle) == 0 { self.closeNow() }
                }
                throw error
            }
        }
    }

    /// Runs `sql` once without keeping its statement (connection settings at open).
    func execute(_ sql: String) async throws {
        try await threadPool.runIfActive {
            guard let handle = self.handle else { throw Failure(code: SQLITE_MISUSE, message: "the connection is closed") }
            try self.check(sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil), on: handle)
        }
    }

    /// After each commit on this connection, `checkpointer` is told how many pages the write-ahead
    /// log holds (`sqlite3_wal_hook`, on the connection's thread, the write lock released). It
    /// replaces SQLite's automatic checkpoint on this connection. When it answers true, the
    /// connection checkpoints there and then, waiting out (busy timeout) the readers of the log so
    /// that the next write starts it over (RESTART), and tells it SQLite's result: busy when another
    /// connection's checkpoint holds the checkpoint lock, which SQLite does not wait for.
    func onCommit(_ checkpointer: WALCheckpointer) async throws {
        try await threadPool.runIfActive {
            guard let handle = self.handle else { throw Failure(code: SQLITE_MISUSE, message: "the connection is closed") }
            let installed = Unmanaged.passRetained(checkpointer)
            sqlite_nio_sqlite3_wal_hook(handle, { context, connection, _, pages in
                guard let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
                if checkpointer.committed(walPages: pages) {
                    checkpointer.checkpointedInline(result: sqlite_nio_sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_RESTART, nil, nil))
                }
                return SQLITE_OK
            }, installed.toOpaque())
            self.commitHook?.release()
            self.commitHook = installed
        }
    }

    func close() async {
        try? await threadPool.runIfActive { self.closeNow() }
    }

    /// On the connection's thread.
    private func closeNow() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
        statements = [:]
        // The hook's box goes only once SQLite can no longer call it.
        if let handle, commitHook != nil { sqlite_nio_sqlite3_wal_hook(handle, nil, nil) }
        sqlite_nio_sqlite3_close(handle)
        handle = nil
        commitHook?.release()
        commitHook = nil
    }

    /// `keep: false` prepares the statement for this one run.
    private func run(_ sql: String, _ binds: [SQLiteData], keep: Bool = true) throws -> [SQLiteReadRow] {
        guard let handle else { throw Failure(code: SQLITE_MISUSE, message: "the connection is closed") }
        let statement = try keep ? prepared(sql, on: handle) : KeptStatement(handle: preparedOnce(sql, on: handle))
        defer { if !keep { sqlite_nio_sqlite3_finalize(statement.handle) } }
        // Reset only: every use binds every parameter anew. `sqlite3_clear_bindings` would mark a
        // statement whose plan looked at its parameters (a join's constants, say: the session and
        // product look-ups) as expired, and SQLite would then prepare it again on every use.
        defer { sqlite_nio_sqlite3_reset(statement.handle) }
        guard sqlite_nio_sqlite3_bind_parameter_count(statement.handle) == Int32(binds.count) else {
            throw Failure(code: SQLITE_RANGE, message: "\(binds.count) values for the parameters of \(sql)")
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement.handle), on: handle)
        }
        var rows: [SQLiteReadRow] = []
        var width = 0
        while true {
            let stepped = sqlite_nio_sqlite3_step(statement.handle)
            if stepped == SQLITE_DONE { return rows }
            guard stepped == SQLITE_ROW else { throw failure(stepped, on: handle) }
            if rows.isEmpty {
                // SQLite prepares a statement anew, if the schema changed, within its first step.
                statement.refreshColumns()
                width = statement.columns.names.count
            }
            var values: [SQLiteData] = []
            values.reserveCapacity(width)
            for column in 0..<Int32(width) { values.append(value(at: column, in: statement.handle)) }
            rows.append(SQLiteReadRow(columns: statement.columns, values: values))
        }
    }

    private func prepared(_ sql: String, on handle: OpaquePointer) throws -> KeptStatement {
        if let kept = statements[sql] { return kept }
        if statements.count >= Self.statementLimit {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
            statements = [:]
        }
        let kept = KeptStatement(handle: try preparedOnce(sql, on: handle, flags: UInt32(SQLITE_PREPARE_PERSISTENT)))
        statements[sql] = kept
        return kept
    }

    private func preparedOnce(_ sql: String, on handle: OpaquePointer, flags: UInt32 = 0) throws -> OpaquePointer {
        var prepared: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, flags, &prepared, nil)
        guard result == SQLITE_OK, let prepared else {
            sqlite_nio_sqlite3_finalize(prepared)
            throw failure(result, on: handle)
        }
        preparedStatements += 1
        return prepared
    }

    private func bind(_ value: SQLiteData, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let number): return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case .float(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
        case .text(let text):
            // Its C string, with the length given (an empty string binds as "", not NULL).
            return sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), SQLiteFunctions.copied, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes { bytes in
                sqlite_nio_sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), SQLiteFunctions.copied)
            }
        }
    }

    private func value(at column: Int32, in statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(SQLiteInt64(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // The text pointer first, then its length (the order SQLite documents).
            let text = sqlite_nio_sqlite3_column_text(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(text.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let bytes = sqlite_nio_sqlite3_column_blob(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes { buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count)) }
            return .blob(buffer)
        default:
            return .null
        }
    }

    private func check(_ result: Int32, on handle: OpaquePointer) throws {
        guard result == SQLITE_OK else { throw failure(result, on: handle) }
    }

    private func failure(_ code: Int32, on handle: OpaquePointer) -> Failure {
        Failure(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }
}
