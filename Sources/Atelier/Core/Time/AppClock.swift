import Foundation
import NIOConcurrencyHelpers

/// The source of "now" for everything time-based (token expiry, rate limits, daily limits),
/// so tests can move time instead of sleeping.
public protocol AppClock: Sendable {
    func now() -> Date
}

public struct SystemClock: AppClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that tests set and advance by hand.
public final class ManualClock: AppClock {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date()) {
        current = NIOLockedValueBox(start)
    }

    public func now() -> Date { current.withLockedValue { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) {
        current.withLockedValue { $0 = date }
    }
}
