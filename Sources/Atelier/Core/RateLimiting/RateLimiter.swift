import Foundation
import NIOConcurrencyHelpers

/// Sliding-window counters kept in memory, keyed by whatever the caller limits on
/// ("login-failure:ip:1.2.3.4", "signup:ip:…", "reset:account:…").
final class RateLimiter: Sendable {
    struct Rule: Sendable {
        var limit: Int
        var window: TimeInterval
    }

    private let clock: any AppClock
    private let events = NIOLockedValueBox<[String: [Date]]>([:])
    private static let maxKeys = 100_000

    init(clock: any AppClock) {
        self.clock = clock
    }

    /// Seconds until another event under `key` would be allowed, or nil if it is allowed now.
    func retryAfter(_ key: String, _ rule: Rule) -> Int? {
        let now = clock.now()
        return events.withLockedValue { events in
            let recent = (events[key] ?? []).filter { now.timeIntervalSince($0) < rule.window }
            events[key] = recent.isEmpty ? nil : recent
            guard recent.count >= rule.limit, let oldest = recent.first else { return nil }
            return max(1, Int((rule.window - now.timeIntervalSince(oldest)).rounded(.up)))
        }
    }

    func record(_ key: String) {
        let now = clock.now()
        events.withLockedValue { events in
            if events.count >= Self.maxKeys { events.removeAll(keepingCapacity: true) }
            events[key, default: []].append(now)
        }
    }

    /// Counts an event and throws `429` when the rule is exceeded.
    func hit(_ key: String, _ rule: Rule) throws {
        if let seconds = retryAfter(key, rule) { throw Problem.tooManyRequests(retryAfter: seconds) }
        record(key)
    }

    func check(_ key: String, _ rule: Rule) throws {
        if let seconds = retryAfter(key, rule) { throw Problem.tooManyRequests(retryAfter: seconds) }
    }

    func reset(_ key: String) {
        _ = events.withLockedValue { $0.removeValue(forKey: key) }
    }
}
