import AtelierServerAPI
import Foundation
import Vapor

/// `/me/calendar…`: outfits planned for dates, and the month view.
extension APIHandler {
    func getCalendarMonth(_ input: Operations.GetCalendarMonth.Input) async throws -> Operations.GetCalendarMonth.Output {
        let (req, user) = try await socialCaller()
        let month = try await WardrobeCalendar(db: req.db, core: services.core).month(input.query.month, ownerID: user.requireID())
        return .ok(.init(body: .json(.init(
            month: String(month.first.description.prefix(7)),
            days: month.days.map { day in
                .init(date: day.date, entries: day.plans.map { WardrobeMapping.entry($0) }, wornItemIds: day.wornItemIDs.map(\.idString))
            }))))
    }

    func planOutfit(_ input: Operations.PlanOutfit.Input) async throws -> Operations.PlanOutfit.Output {
        let (req, user) = try await socialCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        guard let day = LocalDay(body.date), day.year >= 1970 else { throw Problem.invalid("date", "is not a date that exists (YYYY-MM-DD)") }
        guard let outfitID = UUID(uuidString: body.outfitId) else { throw Problem.invalid("outfitId", "is not an id") }
        let outfit = try await OutfitService(db: req.db, core: services.core, mediaLibrary: services.media, wardrobeImages: services.wardrobeImages).own(outfitID, of: user.requireID())
        let planned = try await WardrobeCalendar(db: req.db, core: services.core).plan(outfit, on: day, note: body.note)
        return .created(.init(body: .json(WardrobeMapping.entry(planned.plan, warning: planned.warning))))
    }

    func deleteCalendarEntry(_ input: Operations.DeleteCalendarEntry.Input) async throws -> Operations.DeleteCalendarEntry.Output {
        let (req, user) = try await socialCaller()
        let calendar = WardrobeCalendar(db: req.db, core: services.core)
        try await calendar.delete(try await calendar.ownPlan(try PathID.parse(input.path.planId, "plan"), of: user.requireID()))
        return .noContent(.init())
    }
}
