import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// Sliding-window counters keyed by whatever the caller limits on ("login-failure:ip:1.2.3.4",
/// "signup:ip:…", "reset:account:…"). In memory for one process (SQLite); in PostgreSQL when
/// several instances share the database, so "10 per minute" means 10 across all of them.
final class RateLimiter: Sendable {
    struct Rule: Sendable {
        var limit: Int
        var window: TimeInterval
    }

    private let clock: any AppClock
    private let store: any RateLimitStore

    init(clock: any AppClock, database: (any Database)? = nil) {
        self.clock = clock
        if let database, (database as? any SQLDatabase)?.dialect.name == "postgresql" {
            store = SQLRateLimitStore(db: database)
        } else {
            store = MemoryRateLimitStore()
        }
    }

    /// Seconds until another event under `key` would be allowed, or nil if it is allowed now.
    func retryAfter(_ key: String, _ rule: Rule) async throws -> Int? {
        let now = clock.now()
        let (count, oldest) = try await store.recent(key, since: now.addingTimeInterval(-rule.window))
        guard count >= rule.limit, let oldest else { return nil }
        return max(1, Int((rule.window - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    func record(_ key: String) async throws {
        try await store.record(key, at: clock.now())
    }

    /// Counts an event and throws `429` when the rule is exceeded.
    func hit(_ key: String, _ rule: Rule) async throws {
        try await check(key, rule)
        try await record(key)
    }

    func check(_ key: String, _ rule: Rule) async throws {
        if let seconds = try await retryAfter(key, rule) { throw Problem.tooManyRequests(retryAfter: seconds) }
    }

    func reset(_ key: String) async throws {
        try await store.reset(key)
    }

    /// Forgets events older than any rule looks back (the database store; hourly housekeeping).
    func prune() async throws {
        try await store.prune(before: clock.now().addingTimeInterval(-Self.longestWindow))
    }

    static let longestWindow: TimeInterval = 86_400
}

protocol RateLimitStore: Sendable {
    /// How many events `key` has since `since`, and the oldest of them.
    func recent(_ key: String, since: Date) async throws -> (count: Int, oldest: Date?)
    func record(_ key: String, at: Date) async throws
    func reset(_ key: String) async throws
    func prune(before: Date) async throws
}

struct MemoryRateLimitStore: RateLimitStore {
    private let events = NIOLockedValueBox<[String: [Date]]>([:])
    private static let maxKeys = 100_000

    func recent(_ key: String, since: Date) -> (count: Int, oldest: Date?) {
        events.withLockedValue { events in
            let recent = (events[key] ?? []).filter { $0 > since }
            events[key] = recent.isEmpty ? nil : recent
            return (recent.count, recent.first)
        }
    }

    func record(_ key: String, at: Date) {
        events.withLockedValue { events in
            if events.count >= Self.maxKeys { events.removeAll(keepingCapacity: true) }
            events[key, default: []].append(at)
        }
    }

    func reset(_ key: String) { _ = events.withLockedValue { $0.removeValue(forKey: key) } }

    func prune(before: Date) {}
}

/// Events as rows, the key kept as a hash (keys hold addresses and emails).
struct SQLRateLimitStore: RateLimitStore {
    let db: any Database

    private struct Recent: Decodable {
        var n: Int
        var oldest: Date?
    }

    func recent(_ key: String, since: Date) async throws -> (count: Int, oldest: Date?) {
        let row = try await db.sql.raw("""
            SELECT COUNT(*) AS n, MIN(at) AS oldest FROM rate_limit_events WHERE key_hash = \(bind: TokenHash.sha256(key)) AND at > \(bind: since)
            """).first(decoding: Recent.self)
        return (row?.n ?? 0, row?.oldest)
    }

    func record(_ key: String, at: Date) async throws {
        try await db.sql.raw("INSERT INTO rate_limit_events (key_hash, at) VALUES (\(bind: TokenHash.sha256(key)), \(bind: at))").run()
    }

    func reset(_ key: String) async throws {
        try await db.sql.raw("DELETE FROM rate_limit_events WHERE key_hash = \(bind: TokenHash.sha256(key))").run()
    }

    func prune(before: Date) async throws {
        try await db.sql.raw("DELETE FROM rate_limit_events WHERE at < \(bind: before)").run()
    }
}

/// The shared counters (used on PostgreSQL; the table is there on SQLite too, empty).
struct CreateRateLimitEvents: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("rate_limit_events")
            .field("key_hash", .string, .required)
            .field("at", .datetime, .required)
            .create()
        try await database.sql.create(index: "rate_limit_events_key_idx").on("rate_limit_events").column("key_hash").column("at").run()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("rate_limit_events").delete()
    }
}
