import Fluent
import Foundation
import SQLKit

/// Wears: one per item per local date, however often it is logged. The insert and the counter
/// move in one transaction, and the counter moves only when a row was really added or removed,
/// so `wear_count` always equals the number of distinct dates.
struct WearLog {
    let db: any Database
    let core: CoreServices

    private var now: Date { core.clock.now() }

    /// A worn date may be at most a day ahead of the owner's today (a phone in a zone ahead of the
    /// account's), never more, and not before 1970.
    static func checkWornDay(_ raw: String?, owner: User, now: Date, field: String = "date") throws -> LocalDay {
        let today = LocalDay(now, in: LocalDay.zone(owner.timeZone))
        guard let raw else { return today }
        guard let day = LocalDay(raw), day.year >= 1970 else { throw Problem.invalid(field, "is not a date that exists (YYYY-MM-DD)") }
        guard day <= today.next else { throw Problem.invalid(field, "is in the future; wears are logged on or after the day") }
        return day
    }

    /// Logs `items` as worn on `day`; returns the ids whose wear was new.
    @discardableResult
    func log(_ itemIDs: [UUID], on day: LocalDay, outfitID: UUID?, ownerID: UUID) async throws -> [UUID] {
        let now = self.now
        return try await core.writeTransaction(on: db) { tx in
            try await Self.log(itemIDs, on: day, outfitID: outfitID, ownerID: ownerID, now: now, tx: tx)
        }
    }

    @discardableResult
    static func log(_ itemIDs: [UUID], on day: LocalDay, outfitID: UUID?, ownerID: UUID, now: Date, tx: any Database) async throws -> [UUID] {
        let sql = tx.sql
        var added: [UUID] = []
        for itemID in itemIDs {
            let inserted = try await sql.raw("""
                INSERT INTO \(ident: ClosetWear.schema) (id, item_id, owner_id, worn_on, outfit_id, created_at)
                VALUES (\(bind: UUID()), \(bind: itemID), \(bind: ownerID), \(bind: day.description), \(bind: outfitID), \(bind: now))
                ON CONFLICT (item_id, worn_on) DO NOTHING RETURNING id
                """).all()
            guard !inserted.isEmpty else { continue }
            try await sql.raw("""
                UPDATE \(ident: ClosetItem.schema) SET wear_count = wear_count + 1,
                  last_worn_on = CASE WHEN last_worn_on IS NULL OR last_worn_on < \(bind: day.description) THEN \(bind: day.description) ELSE last_worn_on END
                WHERE id = \(bind: itemID)
                """).run()
            added.append(itemID)
        }
        return added
    }

    /// Takes back the wear of `itemID` on `day`; false when there was none.
    func remove(_ itemID: UUID, on day: LocalDay) async throws -> Bool {
        try await core.writeTransaction(on: db) { tx in
            let sql = tx.sql
            let deleted = try await sql.raw("""
                DELETE FROM \(ident: ClosetWear.schema) WHERE item_id = \(bind: itemID) AND worn_on = \(bind: day.description) RETURNING id
                """).all()
            guard !deleted.isEmpty else { return false }
            try await sql.raw("""
                UPDATE \(ident: ClosetItem.schema) SET wear_count = wear_count - 1,
                  last_worn_on = (SELECT MAX(worn_on) FROM \(ident: ClosetWear.schema) WHERE item_id = \(bind: itemID))
                WHERE id = \(bind: itemID)
                """).run()
            return true
        }
    }

    /// The dates an item was worn, newest first.
    func days(of itemID: UUID, limit: Int = 366) async throws -> [String] {
        try await ClosetWear.query(on: db).filter(\.$itemID == itemID).sort(\.$wornOn, .descending).limit(limit).all().map(\.wornOn)
    }
}
