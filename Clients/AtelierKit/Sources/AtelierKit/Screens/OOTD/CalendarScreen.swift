import AtelierAPI
import Foundation
import Observation

/// OOTD's calendar: a month of planned outfits and what was worn, planning an outfit for a day,
/// and "I wore it" (which logs a wear on each of its closet items).
@MainActor
@Observable
public final class CalendarScreen {
    /// The month shown, `yyyy-MM`.
    public private(set) var month: String
    public private(set) var days: [Components.Schemas.CalendarDay] = []
    /// What the server said about the last plan (the outfit was worn recently, an item is archived…).
    public private(set) var warning: String?
    public let activity = ScreenActivity()
    private let session: AtelierSession

    public init(session: AtelierSession, month: String) {
        self.session = session
        self.month = month
    }

    public func load() async {
        guard let shown = await activity.run({ [session, month] in try await session.wardrobe.getCalendarMonth(query: .init(month: month)) }) else { return }
        days = shown.days
    }

    public func show(month: String) async {
        self.month = month
        days = []
        await load()
    }

    /// The day's entries, or none; `date` is `yyyy-MM-dd`.
    public func entries(on date: String) -> [Components.Schemas.CalendarEntry] {
        days.first { $0.date == date }?.entries ?? []
    }

    public func plan(outfitID: String, on date: String, note: String? = nil) async {
        await change { session in try await session.wardrobe.planOutfit(.init(outfitId: outfitID, date: date, note: note)) }
    }

    public func markWorn(outfitID: String, on date: String? = nil) async {
        await change { session in try await session.wardrobe.markOutfitWorn(outfitId: outfitID, query: .init(date: date)) }
    }

    public func unplan(planID: String) async {
        guard await activity.run({ [session] in try await session.wardrobe.deleteCalendarEntry(planId: planID); return true }) == true else { return }
        warning = nil
        await load()
    }

    /// A change, then the month again as the server has it (a plan may land in another day's list).
    private func change(_ call: @escaping @Sendable (AtelierSession) async throws -> Components.Schemas.CalendarEntry) async {
        guard let entry = await activity.run({ [session] in try await call(session) }) else { return }
        warning = entry.warning
        await load()
    }
}
