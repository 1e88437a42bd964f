import Crypto
import FluentPostgresDriver
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The live bus across instances on PostgreSQL (operations.md; notifications.md, "Live updates").
///
/// Sending: a publish is delivered to this process's hub at once, then sent to the other instances
/// with `SELECT pg_notify(channel, payload)` through the pool. Callers publish after their write
/// committed, so a listener only hears of committed changes; `notify(_:in:)` instead queues the
/// notification in a write transaction, and PostgreSQL sends it when (and only if) it commits.
/// A payload above `inlineLimit` bytes (NOTIFY takes under 8 000) is written to `live_events` in
/// the same statement, and the notification carries only its id.
///
/// Receiving: one dedicated connection, outside the pool, `LISTEN`s on a channel named after the
/// database schema (instances of one installation share it; test apps, each on its own schema, do
/// not hear each other). Every message names the instance that sent it, which ignores its own:
/// it delivered locally already. When the connection drops, it is made again with exponential
/// backoff and jitter; a probe every `probeInterval` closes one that stopped answering. Nothing is
/// heard while it is down: on reconnecting, the catalogue caches start afresh, and live events of
/// the gap are lost, as they are for a client whose socket reconnects (clients refetch then).
///
/// On SQLite there is one process and no bus: `LiveUpdates` keeps its in-process bus.
final class ClusterBus: LiveBus, Sendable {
    /// NOTIFY payloads must be shorter than 8 000 bytes; a larger message goes through `live_events`.
    static let inlineLimit = 7_000
    /// How long a stored message is kept for the listeners to read; housekeeping deletes older ones.
    static let storedLifetime: TimeInterval = 600
    /// Reconnection delays: from `firstRetry` seconds, doubling up to `longestRetry`, each drawn
    /// at random from its upper half so that instances that lost the server together do not return
    /// in step.
    static let firstRetry = 0.2
    static let longestRetry = 10.0
    /// A connection that stayed up this long starts the backoff afresh when it drops.
    static let healthyAfter: Duration = .seconds(30)
    /// How often the listening connection is asked `SELECT 1`, and how long it has to answer.
    static let probeInterval: Duration = .seconds(20)
    static let probeTimeout: Duration = .seconds(10)

    /// What the caches of this instance need to hear.
    struct CacheHooks: Sendable {
        /// Another instance changed the catalogue, or this one may have missed that it did. Only
        /// the local caches: nothing may be sent on from here.
        var catalogChanged: @Sendable () -> Void
        /// Whether the other instances' invalidations are being heard. While not, kept answers
        /// cannot be trusted (whoever adopts this stops using them).
        var hearing: @Sendable (Bool) -> Void = { _ in }
    }

    /// Who sent a message: each instance ignores its own.
    let instanceID = UUID()
    /// The NOTIFY channel of this installation (its database schema).
    let channel: String
    let hub: LiveHub
    private let url: URL
    private let schema: String?
    private let clock: any AppClock
    private let state = NIOLockedValueBox(State())

    private struct State {
        var db: (any Database)?
        var hooks: CacheHooks?
        var logger = Logger(label: "atelier.live-bus")
        var reader: Task<Void, Never>?
        var connection: PostgresConnection?
        var backendPID: Int32?
        var listeningSince: ContinuousClock.Instant?
        var listens = 0
        var sequence: UInt64 = 0
        var connectionIDs = 0
        var stopped = false
    }

    /// The bus for `config`, or nil on SQLite.
    static func make(config: AppConfig, hub: LiveHub, clock: any AppClock) -> ClusterBus? {
        guard let url = config.sessionDatabaseURL else { return nil }
        return ClusterBus(url: url, schema: config.databaseSchema, hub: hub, clock: clock)
    }

    init(url: URL, schema: String?, hub: LiveHub, clock: any AppClock) {
        self.url = url
        self.schema = schema
        self.hub = hub
        self.clock = clock
        channel = Self.channelName(schema: schema)
    }

    /// `atelier_live` for the default schema, `atelier_live_<schema>` for another (a digest of it
    /// when it is not plain lower-case ASCII or too long: channel names are identifiers, at most 63 bytes).
    static func channelName(schema: String?) -> String {
        guard let schema, !schema.isEmpty else { return "atelier_live" }
        let plain = schema.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        if plain && schema.utf8.count <= 50 { return "atelier_live_" + schema }
        let digest = Hex.lowercase(SHA256.hash(data: Data(schema.utf8)).prefix(20))
        return "atelier_live_" + digest
    }

    // MARK: Life cycle

    /// Starts listening (after the migrations: big messages are read from `live_events`). Waits a
    /// few seconds for the first `LISTEN`, so that what is published from then on is heard; if the
    /// server cannot be reached, the reader keeps trying in the background.
    func start(_ app: Application, hooks: CacheHooks) async throws {
        var configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        PostgresConnectionName.tag(&configuration, as: "listen")
        let logger = app.logger
        let db = app.db
        let first = state.withLockedValue { state -> Bool in
            guard state.db == nil, !state.stopped else { return false }
            (state.db, state.hooks, state.logger) = (db, hooks, logger)
            return true
        }
        guard first else { return }
        hooks.hearing(false)
        let group = app.eventLoopGroup
        let reader = Task { await self.run(configuration: configuration, group: group, logger: logger) }
        state.withLockedValue { $0.reader = reader }
        if !(await waitUntilListening(timeout: .seconds(5))) {
            logger.warning("The live bus is not listening on PostgreSQL yet; it keeps trying. Until then other instances' live events and cache changes are not heard.")
        }
    }

    /// Stops listening (at shutdown, before the pool closes). Publishing then only delivers locally.
    func stop() async {
        let (reader, connection) = state.withLockedValue { state -> (Task<Void, Never>?, PostgresConnection?) in
            state.stopped = true
            defer { state.reader = nil }
            return (state.reader, state.connection)
        }
        reader?.cancel()
        try? await connection?.close()
        await reader?.value
    }

    // MARK: Sending

    /// Delivers to this instance's subscribers, then tells the other instances.
    func publish(_ message: LiveMessage) async {
        hub.deliver(message)
        await broadcast(.live(message))
    }

    /// Tells the other instances through the pool, now. Failures are logged, not thrown: the
    /// change itself has committed, and a lost announcement costs at most a cache lifetime.
    func broadcast(_ event: ClusterEvent) async {
        let target = state.withLockedValue { state -> (db: any Database, logger: Logger)? in
            guard !state.stopped, let db = state.db else { return nil }
            return (db, state.logger)
        }
        guard let target else { return }
        do {
            try await write(event, on: target.db)
        } catch {
            target.logger.warning("The live bus could not send to the other instances: \(String(reflecting: error))")
        }
    }

    /// Inside a write transaction: PostgreSQL sends the notification when `tx` commits, and never
    /// if it rolls back. This instance is not told (it ignores its own messages): the caller applies
    /// the change locally after the commit (`hub.deliver`, `invalidateCatalogCaches`). Throws, since
    /// a failed statement fails the transaction anyway.
    func notify(_ event: ClusterEvent, in tx: any Database) async throws {
        try await write(event, on: tx)
    }

    private func write(_ event: ClusterEvent, on db: any Database) async throws {
        guard let sql = db as? any SQLDatabase, sql.dialect.name == "postgresql" else { return }
        let sequence = state.withLockedValue { state -> UInt64 in
            state.sequence &+= 1
            return state.sequence
        }
        let message = try ClusterEnvelope(origin: instanceID, sequence: sequence, event: event).encoded()
        if message.utf8.count <= Self.inlineLimit {
            try await sql.raw("SELECT pg_notify(\(bind: channel), \(bind: message))").run()
            return
        }
        let id = UUID()
        let notice = try ClusterEnvelope(origin: instanceID, sequence: sequence, stored: id).encoded()
        // One statement (one transaction when on its own): the row is committed before the
        // notification that names it is delivered.
        try await sql.raw("""
            WITH stored AS (
                INSERT INTO \(ident: LiveEventRecord.table) (id, payload, created_at)
                VALUES (\(bind: id), \(bind: message), \(bind: clock.now())) RETURNING id)
            SELECT pg_notify(\(bind: channel), \(bind: notice)) FROM stored
            """).run()
    }

    /// Deletes stored messages written before `cutoff` (the hourly housekeeping job).
    static func pruneStored(on db: any Database, before cutoff: Date) async throws {
        guard let sql = db as? any SQLDatabase else { return }
        try await sql.raw("DELETE FROM \(ident: LiveEventRecord.table) WHERE created_at < \(bind: cutoff)").run()
    }

    // MARK: Receiving

    /// Whether the dedicated connection is listening now.
    var isListening: Bool { state.withLockedValue { $0.listeningSince != nil } }
    /// The server process of the listening connection (tests end it to see the bus reconnect).
    var backendPID: Int32? { state.withLockedValue { $0.backendPID } }
    /// How many times a `LISTEN` succeeded (1 after starting, one more per reconnection).
    var listens: Int { state.withLockedValue { $0.listens } }

    func waitUntilListening(timeout: Duration) async -> Bool {
        await waitFor(timeout: timeout) { $0.isListening }
    }

    func waitForListens(atLeast count: Int, timeout: Duration) async -> Bool {
        await waitFor(timeout: timeout) { $0.listens >= count && $0.isListening }
    }

    private func waitFor(timeout: Duration, _ condition: (ClusterBus) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(self) {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Listens until stopped; after each loss of the connection waits, then connects again.
    private func run(configuration: PostgresConnection.Configuration, group: any EventLoopGroup, logger: Logger) async {
        var attempt = 0
        while !Task.isCancelled {
            do {
                try await listenOnce(configuration: configuration, group: group, logger: logger)
            } catch {
                if !Task.isCancelled { logger.warning("The live bus lost its PostgreSQL connection: \(String(reflecting: error))") }
            }
            let (listenedFor, hooks) = state.withLockedValue { state -> (Duration?, CacheHooks?) in
                defer { (state.listeningSince, state.connection, state.backendPID) = (nil, nil, nil) }
                return (state.listeningSince.map { ContinuousClock.now - $0 }, state.hooks)
            }
            if listenedFor != nil { hooks?.hearing(false) }
            if Task.isCancelled { return }
            if let listenedFor, listenedFor >= Self.healthyAfter { attempt = 0 }
            let delay = Self.retryDelay(attempt: attempt)
            attempt += 1
            logger.info("The live bus reconnects to PostgreSQL in \(delay)")
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    static func retryDelay(attempt: Int) -> Duration {
        let ceiling = min(longestRetry, firstRetry * pow(2, Double(min(attempt, 20))))
        return .nanoseconds(Int64(Double.random(in: (ceiling / 2)...ceiling) * 1e9))
    }

    /// One connection: connects, listens, and returns or throws when it is lost.
    private func listenOnce(configuration: PostgresConnection.Configuration, group: any EventLoopGroup, logger: Logger) async throws {
        let id = state.withLockedValue { state -> Int in
            state.connectionIDs += 1
            return state.connectionIDs
        }
        let connection = try await PostgresConnection.connect(on: group.any(), configuration: configuration, id: id, logger: logger)
        let kept = state.withLockedValue { state -> Bool in
            guard !state.stopped else { return false }
            state.connection = connection
            return true
        }
        guard kept else {
            try? await connection.close()
            return
        }
        do {
            let pid = try await Self.backendPID(of: connection, logger: logger)
            try await connection.listen(on: channel) { notifications in
                self.listening(pid: pid)
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask { try await self.consume(notifications, on: connection, logger: logger) }
                    tasks.addTask { await Self.watch(connection, logger: logger) }
                    _ = try await tasks.next()
                    tasks.cancelAll()
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try? await connection.close()
    }

    private func listening(pid: Int32) {
        let (reconnected, hooks) = state.withLockedValue { ($0.listens > 0, $0.hooks) }
        // What the other instances changed while this one was not listening went unheard: the
        // caches start afresh (listening already, so that nothing said from now on is missed).
        if reconnected { hooks?.catalogChanged() }
        state.withLockedValue { state in
            state.backendPID = pid
            state.listeningSince = .now
            state.listens += 1
        }
        hooks?.hearing(true)
    }

    private static func backendPID(of connection: PostgresConnection, logger: Logger) async throws -> Int32 {
        for try await row in try await connection.query("SELECT pg_backend_pid()", logger: logger) {
            return try row.decode(Int32.self)
        }
        throw ClusterBusError.noAnswer
    }

    private func consume(_ notifications: PostgresNotificationSequence, on connection: PostgresConnection, logger: Logger) async throws {
        for try await notification in notifications {
            await received(notification.payload, on: connection, logger: logger)
        }
        try Task.checkCancellation()
        throw ClusterBusError.listeningEnded
    }

    /// Asks the connection `SELECT 1` every `probeInterval`; closes it when it does not answer in
    /// `probeTimeout` (a server or network that went away without closing the socket). Returns
    /// then, or when cancelled.
    private static func watch(_ connection: PostgresConnection, logger: Logger) async {
        while true {
            do { try await Task.sleep(for: probeInterval) } catch { return }
            let answered = await withTaskGroup(of: Bool.self) { probes in
                probes.addTask { (try? await connection.query("SELECT 1", logger: logger)) != nil }
                probes.addTask {
                    do { try await Task.sleep(for: probeTimeout) } catch { return true }
                    try? await connection.close()  // also ends the query above
                    return false
                }
                let first = await probes.next() ?? false
                probes.cancelAll()
                return first
            }
            guard answered else {
                logger.warning("The live bus connection did not answer; reconnecting")
                try? await connection.close()
                return
            }
        }
    }

    private func received(_ payload: String, on connection: PostgresConnection, logger: Logger) async {
        guard let notice = ClusterEnvelope.decode(payload) else {
            return logger.warning("The live bus heard a message it cannot read (\(payload.utf8.count) bytes)")
        }
        guard notice.origin != instanceID else { return }
        var envelope = notice
        if let id = notice.stored {
            do {
                guard let text = try await storedMessage(id, on: connection), let stored = ClusterEnvelope.decode(text) else {
                    return logger.warning("The live bus message stored as \(id) is gone or unreadable")
                }
                envelope = stored
            } catch {
                return logger.warning("The live bus could not read the message stored as \(id): \(String(reflecting: error))")
            }
        }
        // A kind this version does not know (a newer instance during a rolling upgrade) is ignored.
        switch envelope.event {
        case .live(let message)?: hub.deliver(message)
        case .catalogChanged?: state.withLockedValue { $0.hooks }?.catalogChanged()
        case nil: break
        }
    }

    /// Read on the listening connection itself, which has no search path: the table is qualified.
    private func storedMessage(_ id: UUID, on connection: PostgresConnection) async throws -> String? {
        let table = (schema.map { Self.quoted($0) + "." } ?? "") + Self.quoted(LiveEventRecord.table)
        let logger = state.withLockedValue { $0.logger }
        let query: PostgresQuery = "SELECT payload FROM \(unescaped: table) WHERE id = \(id)"
        for try await row in try await connection.query(query, logger: logger) {
            return try row.decode(String.self)
        }
        return nil
    }

    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Stops the bus at shutdown: after the requests drained and the background loops stopped
    /// (they may still publish), before the database pool closes.
    struct Shutdown: LifecycleHandler {
        func shutdownAsync(_ app: Application) async {
            await app.atelier.cluster?.stop()
        }
    }

    /// Starts `app`'s bus, if it has one (PostgreSQL), its hooks keeping the local caches.
    static func startIfConfigured(_ app: Application) async throws {
        let services = app.atelier
        guard let bus = services.cluster else { return }
        try await bus.start(app, hooks: CacheHooks(
            catalogChanged: { [weak services] in services?.invalidateCatalogCaches() },
            hearing: { [weak services] hearing in services?.catalogCachesHeard(hearing) }))
    }
}

enum ClusterBusError: Error {
    case noAnswer
    case listeningEnded
}
