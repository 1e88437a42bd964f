import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Wardrobe: the morning outfit reminder")
struct OutfitReminderTests {
    @Test("the planned outfit reaches the inbox at 07:00 in the person's zone, once; not before, not for worn plans, not for another day")
    func reminder() async throws {
        try await TestApp.with { t in
            var stockholm = try await t.signUp()
            var tokyo = try await t.signUp()
            try await t.setTimeZone("Europe/Stockholm", for: stockholm)  // UTC+1 in November
            try await t.setTimeZone("Asia/Tokyo", for: tokyo)  // UTC+9
            // 2026-11-20 12:00 UTC: everything is planned the day before.
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 12 * 3600))
            stockholm = try await t.refreshed(stockholm)
            tokyo = try await t.refreshed(tokyo)
            func plan(_ s: Session, _ name: String, on day: String, note: String = "") async throws -> String {
                let item = try await t.closetItem(s.accessToken, type: "dress", shape: .dress)
                let outfit = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"\#(name)","pieces":[{"closetItemId":"\#(item.id)"}]}"#, token: s.accessToken)
                    .content.decode(OutfitBody.self)
                let planned = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"\#(day)","note":"\#(note)"}"#, token: s.accessToken)
                #expect(planned.status == .created)
                return outfit.id
            }
            _ = try await plan(stockholm, "Board meeting", on: "2026-11-21", note: "the board")
            let worn = try await plan(stockholm, "Already worn", on: "2026-11-21")
            _ = try await plan(stockholm, "Next week", on: "2026-11-28")
            _ = try await plan(tokyo, "Shibuya", on: "2026-11-21")
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 23 * 3600))  // 2026-11-20 23:00 UTC
            stockholm = try await t.refreshed(stockholm)
            try await t.send(.POST, "/api/v1/outfits/\(worn)/worn?date=2026-11-21", token: stockholm.accessToken)

            func reminders(_ s: Session) async throws -> [InboxEntry] {
                try await InboxEntry.query(on: t.app.db).filter(\.$recipientID == UUID(uuidString: s.user.id)!)
                    .filter(\.$kind == InboxEntry.Kind.outfitReminder.rawValue).all()
            }
            let reminders_ = OutfitReminders(db: t.app.db, core: t.app.core, live: t.app.atelier.live)
            // 2026-11-20 22:30 UTC: 07:30 on the 21st in Tokyo, 23:30 on the 20th in Stockholm.
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 22.5 * 3600))
            #expect(try await reminders_.sendDue() == 1)
            #expect(try await reminders(tokyo).map(\.text) == ["Today's outfit: Shibuya."])
            #expect(try await reminders(stockholm).isEmpty)
            // 05:50 UTC on the 21st: 06:50 in Stockholm, not yet.
            t.clock.set(Date(timeIntervalSince1970: 1_795_132_800 + 24 * 3600 + 5 * 3600 + 50 * 60))
            #expect(try await reminders_.sendDue() == 0)
            // 06:05 UTC: 07:05 in Stockholm. Once, however often the loop runs.
            t.clock.advance(by: 15 * 60)
            #expect(try await reminders_.sendDue() == 1)
            #expect(try await reminders_.sendDue() == 0)
            let sent = try await reminders(stockholm)
            #expect(sent.map(\.text) == ["Today's outfit: Board meeting, for the board."])
            #expect(sent.first?.webPath.hasPrefix("/outfits/") == true)
            #expect(try await reminders(tokyo).count == 1)
        }
    }
}
