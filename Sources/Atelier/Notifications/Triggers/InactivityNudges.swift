import Fluent
import Foundation
import SQLKit

/// "We miss you" once per absence: to people with a device who have not used the app for 14 days
/// (their sessions' last use), sent in their daytime (10:00–20:00 in their zone). The inbox entry
/// is the mark: none is written again until they have been back and away again.
struct InactivityNudges {
    let db: any Database
    let core: CoreServices

    static let absence: TimeInterval = 14 * 86_400
    static let daytime = 10..<20

    private struct Candidate: Decodable {
        var id: UUID
        var time_zone: String
    }

    @discardableResult
    func sendDue() async throws -> Int {
        let now = core.clock.now()
        let sql = db.sql
        let kind = InboxEntry.Kind.weMissYou.rawValue
        let candidates = try await sql.raw("""
            SELECT u.id, u.time_zone FROM \(ident: User.schema) u
            JOIN (SELECT user_id, MAX(last_used_at) AS last_seen FROM \(ident: SessionFamily.schema) GROUP BY user_id) s ON s.user_id = u.id
            WHERE u.suspended_at IS NULL AND s.last_seen < \(bind: now.addingTimeInterval(-Self.absence))
              AND EXISTS (SELECT 1 FROM \(ident: Device.schema) d WHERE d.user_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM \(ident: InboxEntry.schema) e WHERE e.recipient_id = u.id AND e.kind = \(bind: kind) AND e.created_at > s.last_seen)
            ORDER BY u.id LIMIT 500
            """).all(decoding: Candidate.self)
        var sent = 0
        for candidate in candidates {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: candidate.time_zone) ?? .gmt
            guard Self.daytime.contains(calendar.component(.hour, from: now)) else { continue }
            try await core.writeTransaction(on: db) { tx in
                try await InboxService.record(.init(
                    recipientID: candidate.id, kind: .weMissYou, actorID: nil, message: .weMissYou,
                    link: "atelier://discover", webPath: "/"), on: tx, now: now)
            }
            sent += 1
        }
        return sent
    }
}
