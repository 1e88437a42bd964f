import Fluent
import Foundation
import NIOConcurrencyHelpers

/// Which live channels a person may listen to, and whose events they do not see. Each domain with
/// live channels registers its kind's check ("moment:<id>": the moment's members), and Social who is
/// hidden from whom (blocks), at start-up through the composition root; Notifications never names them.
final class LiveChannelAccess: Sendable {
    /// Whether `userID` may listen to the channel of entity `id`.
    typealias Check = @Sendable (_ id: UUID, _ userID: UUID, _ db: any Database) async throws -> Bool
    /// Whether `actor`'s events are hidden from `viewer`.
    typealias Hiding = @Sendable (_ viewer: UUID, _ actor: UUID, _ db: any Database) async throws -> Bool

    private let checks = NIOLockedValueBox<[String: Check]>([:])
    private let hiding = NIOLockedValueBox<Hiding?>(nil)

    func register(kind: String, _ check: @escaping Check) {
        checks.withLockedValue { $0[kind] = check }
    }

    func hideActors(_ rule: @escaping Hiding) {
        hiding.withLockedValue { $0 = rule }
    }

    /// nil when allowed, else the HTTP status that says why not: 400 for a channel name that is not
    /// "<kind>:<uuid>" of a registered kind, 404 when the person may not listen (or the check failed).
    func refusal(_ channel: String, userID: UUID, db: any Database) async -> Int? {
        let parts = channel.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = UUID(uuidString: parts[1]), let check = checks.withLockedValue({ $0[parts[0]] }) else { return 400 }
        return (try? await check(id, userID, db)) == true ? nil : 404
    }

    /// Whether `actor`'s event is kept from `viewer`; when the rule cannot be asked, it is kept from them.
    func hides(_ actor: UUID, from viewer: UUID, db: any Database) async -> Bool {
        guard let rule = hiding.withLockedValue({ $0 }) else { return false }
        return (try? await rule(viewer, actor, db)) ?? true
    }
}
