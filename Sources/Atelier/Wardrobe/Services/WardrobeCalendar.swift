import Fluent
import Foundation
import SQLKit

/// Planning outfits for dates and marking them worn. Planning an outfit that was worn in the 14
/// days before the date answers with a warning naming that date (it is still planned).
struct WardrobeCalendar {
    let db: any Database
    let core: CoreServices

    static let repeatWindowDays = 14

    struct Planned: Sendable {
        var plan: OutfitPlan
        var warning: String?
    }

    struct Day: Sendable {
        var date: String
        var plans: [OutfitPlan]
        var wornItemIDs: [UUID]
    }

    private var now: Date { core.clock.now() }

    func plan(_ outfit: Outfit, on day: LocalDay, note: String?) async throws -> Planned {
        let note = (note ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 200 else { throw Problem.invalid("note", "at most 200 characters") }
        let outfitID = try outfit.requireID()
        let ownerID = outfit.ownerID
        let now = self.now
        let plan = try await core.writeTransaction(on: db) { tx -> OutfitPlan in
            let plan = try await Self.plan(of: ownerID, outfitID, on: day, tx: tx, now: now)
            plan.note = note
            try await plan.save(on: tx)
            return plan
        }
        return Planned(plan: plan, warning: try await repeatWarning(outfitID, before: day))
    }

    /// Marks the outfit worn on `day` (planning it there if it was not) and logs a wear for each
    /// of its closet items, all in one transaction.
    func markWorn(_ outfit: Outfit, on day: LocalDay) async throws -> OutfitPlan {
        let outfitID = try outfit.requireID()
        let ownerID = outfit.ownerID
        let now = self.now
        let itemIDs = try await OutfitPieces(db: db).pieces(of: outfitID).compactMap(\.closetItemID)
        return try await core.writeTransaction(on: db) { tx -> OutfitPlan in
            let plan = try await Self.plan(of: ownerID, outfitID, on: day, tx: tx, now: now)
            plan.wornAt = plan.wornAt ?? now
            try await plan.save(on: tx)
            try await WearLog.log(itemIDs, on: day, outfitID: outfitID, ownerID: ownerID, now: now, tx: tx)
            return plan
        }
    }

    /// The owner's entry for the outfit on that day, or a new, unsaved one.
    private static func plan(of ownerID: UUID, _ outfitID: UUID, on day: LocalDay, tx: any Database, now: Date) async throws -> OutfitPlan {
        if let existing = try await OutfitPlan.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$day == day.description)
            .filter(\.$outfitID == outfitID).first() {
            return existing
        }
        let plan = OutfitPlan()
        plan.id = .v7(at: now)
        plan.ownerID = ownerID
        plan.day = day.description
        plan.outfitID = outfitID
        plan.note = ""
        plan.createdAt = now
        return plan
    }

    func ownPlan(_ id: UUID, of ownerID: UUID) async throws -> OutfitPlan {
        guard let plan = try await OutfitPlan.find(id, on: db), plan.ownerID == ownerID else { throw Problem.notFound("plan") }
        return plan
    }

    func delete(_ plan: OutfitPlan) async throws {
        try await core.writeTransaction(on: db) { tx in try await plan.delete(on: tx) }
    }

    /// "YYYY-MM" → every day of that month with its plans and worn items (days with neither are left out).
    func month(_ raw: String, ownerID: UUID) async throws -> (first: LocalDay, days: [Day]) {
        guard let (first, next) = LocalDay.month(raw) else { throw Problem.invalid("month", "is not a month (YYYY-MM)") }
        let plans = try await OutfitPlan.query(on: db).filter(\.$ownerID == ownerID).filter(\.$day >= first.description)
            .filter(\.$day < next.description).sort(\.$day).sort(\.$id).all()
        let wears = try await ClosetWear.query(on: db).filter(\.$ownerID == ownerID).filter(\.$wornOn >= first.description)
            .filter(\.$wornOn < next.description).sort(\.$wornOn).all()
        var days: [String: Day] = [:]
        for plan in plans { days[plan.day, default: Day(date: plan.day, plans: [], wornItemIDs: [])].plans.append(plan) }
        for wear in wears { days[wear.wornOn, default: Day(date: wear.wornOn, plans: [], wornItemIDs: [])].wornItemIDs.append(wear.itemID) }
        return (first, days.values.sorted { $0.date < $1.date })
    }

    /// "Worn on 2026-11-20" when the outfit was worn in the 14 days before `day`.
    private func repeatWarning(_ outfitID: UUID, before day: LocalDay) async throws -> String? {
        let from = day.adding(days: -Self.repeatWindowDays)
        guard let last = try await OutfitPlan.query(on: db).filter(\.$outfitID == outfitID).filter(\.$wornAt != nil)
            .filter(\.$day >= from.description).filter(\.$day < day.description).sort(\.$day, .descending).first()
        else { return nil }
        return "You wore this outfit on \(last.day), within \(Self.repeatWindowDays) days before \(day.description)."
    }
}
