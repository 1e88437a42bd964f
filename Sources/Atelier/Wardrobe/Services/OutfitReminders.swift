import Fluent
import Foundation
import SQLKit

/// The morning reminder: at 07:00 in each person's own time zone, the outfit they planned for
/// that day goes to their inbox, once (a guarded `reminded_at` makes a second pass, or a second
/// instance, a no-op). A day that has passed is not reminded late; worn plans need no reminder.
struct OutfitReminders {
    let db: any Database
    let core: CoreServices
    let live: LiveUpdates

    static let hour = 7

    /// Sends every reminder that is due now; returns how many went out.
    @discardableResult
    func sendDue() async throws -> Int {
        let now = core.clock.now()
        // Every zone's "today" lies within a day of UTC's.
        let utcToday = LocalDay(now, in: LocalDay.utc)
        let candidates = try await OutfitPlan.query(on: db).filter(\.$remindedAt == nil).filter(\.$wornAt == nil)
            .filter(\.$day >= utcToday.adding(days: -1).description).filter(\.$day <= utcToday.next.description)
            .sort(\.$id).limit(1000).all()
        guard !candidates.isEmpty else { return 0 }
        let owners = Dictionary(uniqueKeysWithValues: try await User.query(on: db).filter(\.$id ~~ Array(Set(candidates.map(\.ownerID)))).all()
            .map { ($0.id!, $0) })
        let outfitIDs = Array(Set(candidates.map(\.outfitID)))
        let outfits = Dictionary(uniqueKeysWithValues: try await Outfit.query(on: db).filter(\.$id ~~ outfitIDs).all().map { ($0.id!, $0) })
        var sent = 0
        for plan in candidates {
            guard let owner = owners[plan.ownerID], let outfit = outfits[plan.outfitID] else { continue }
            let zone = LocalDay.zone(owner.timeZone)
            guard plan.day == LocalDay(now, in: zone).description else { continue }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard calendar.component(.hour, from: now) >= Self.hour else { continue }
            let planID = try plan.requireID()
            let outfitID = try outfit.requireID()
            let message = NotificationMessage.outfitReminder(outfit: outfit.name, note: plan.note)
            let recorded = try await core.writeTransaction(on: db) { tx -> Bool in
                let claimed = try await tx.sql.raw("""
                    UPDATE \(ident: OutfitPlan.schema) SET reminded_at = \(bind: now)
                    WHERE id = \(bind: planID) AND reminded_at IS NULL AND worn_at IS NULL RETURNING id
                    """).all()
                guard !claimed.isEmpty else { return false }
                try await InboxService.record(.init(
                    recipientID: plan.ownerID, kind: .outfitReminder, actorID: nil, message: message,
                    link: "atelier://outfits/\(outfitID.idString)", webPath: "/outfits/\(outfitID.idString)"), on: tx, now: now)
                return true
            }
            if recorded {
                sent += 1
                await InboxService.announce(.outfitReminder, to: plan.ownerID, by: nil, live: live)
            }
        }
        return sent
    }
}
