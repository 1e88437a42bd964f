import Foundation
import Observation

/// What a screen is doing: whether a call is on its way, and the last failure for it to show
/// (cleared by the next success). Every screen model holds one, so a view draws one spinner and
/// one error banner the same way on every screen.
@MainActor
@Observable
public final class ScreenActivity {
    public private(set) var isWorking = false
    public private(set) var error: (any Error)?

    public init() {}

    /// Runs `work` off the main actor; its value, or nil after recording the failure. An
    /// exclusive call (a load, a save) is skipped while another exclusive one is on its way, so a
    /// double tap sends one request; a quick toggle (a like) is not held up by a slow load.
    public func run<Value: Sendable>(exclusive: Bool = true, _ work: @escaping @Sendable () async throws -> Value) async -> Value? {
        if exclusive {
            guard !isWorking else { return nil }
            isWorking = true
        }
        defer { if exclusive { isWorking = false } }
        do {
            let value = try await work()
            error = nil
            return value
        } catch {
            self.error = error
            return nil
        }
    }

    /// A failure from outside `run` (a live stream that ended with an error).
    public func report(_ error: any Error) {
        self.error = error
    }
}
