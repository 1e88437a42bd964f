import Fluent
import Foundation
import SQLKit

/// Planning outfits for dates and marking them worn. Planning an outfit that was worn in the 14
/// days before the date answers with a warning naming that date (it is still planned).
struct WardrobeCalendar {
    let db: any Database
    let services: AtelierServices

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

    private var now: Date { services.clock.now() }

    func plan(_ outfit: Outfit, on day: LocalDay, note: String?) async throws -> Planned {
        let note = (note ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard note.count <= 200 else { throw Problem.invalid("note", "at most 200 characters") }
        let outfitID = try outfit.requireID()
        let ownerID = outfit.ownerID
        let now = self.now
        let plan = try await services.writeTransaction(on: db) { tx -> OutfitPlan in
            if let existing = try await OutfitPlan.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$day == day.description)
                .filter(\.$outfitID == outfitID).first() {
                existing.note = note
                try await existing.save(on: tx)
                return existing
            }
            let plan = OutfitPlan()
            plan.id = .v7(at: now)
            plan.ownerID = ownerID
            plan.day = day.description
            plan.outfitID = outfitID
            plan.note = note
            plan.createdAt = now
            try await plan.create(on: tx)
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
        return try await services.writeTransaction(on: db) { tx -> OutfitPlan in
            let plan = try await OutfitPlan.query(on: tx).filter(\.$ownerID == ownerID).filter(\.$day == day.description)
                .filter(\.$outfitID == outfitID).first() ?? {
                    let plan = OutfitPlan()
                    plan.id = .v7(at: now)
                    plan.ownerID = ownerID
                    plan.day = day.description
                    plan.outfitID = outfitID
                    plan.note = ""
                    plan.createdAt = now
                    return plan
                }()
            plan.wornAt = plan.wornAt ?? now
            try await plan.save(on: tx)
            try await WearLog.log(itemIDs, on: day, outfitID: outfitID, ownerID: ownerID, now: now, tx: tx)
            return plan
        }
    }

    func ownPlan(_ id: UUID, of ownerID: UUID) async throws -> OutfitPlan {
        guard let plan = try await OutfitPlan.find(id, on: db), plan.ownerID == ownerID else { throw Problem.notFound("plan") }
        return plan
    }

    func delete(_ plan: OutfitPlan) async throws {
        try await services.writeTransaction(on: db) { tx in try await plan.delete(on: tx) }
    }

    /// "YYYY-MM" → every day of that month with its plans and worn items (days with neither are left out).
    func month(_ raw: String, ownerID: UUID) async throws -> (first: LocalDay, days: [Day]) {
        let parts = raw.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
            let first = LocalDay(String(format: "%04d-%02d-01", year, month))
        else { throw Problem.invalid("month", "is not a month (YYYY-MM)") }
        let next = month == 12 ? LocalDay(year: year + 1, month: 1, day: 1) : LocalDay(year: year, month: month + 1, day: 1)
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
