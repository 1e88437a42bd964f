import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

@Suite("Notifications: the morning outfit reminder reaches the phone at 07:00 local")
struct MorningReminderPushTests {
    @Test("at the ends of the clock (UTC+14 and UTC−12) the push comes at 07:00 local through the job queue: not at 06:59, once")
    func earliestAndLatestZones() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let midnight = Date(timeIntervalSince1970: 1_795_132_800)  // 2026-11-20 00:00 UTC
            t.clock.set(midnight)
            var kiritimati = try await t.signUp(name: "Kiri")
            var baker = try await t.signUp(name: "Baker")
            try await t.setTimeZone("Pacific/Kiritimati", for: kiritimati)  // UTC+14: already 14:00 on the 20th
            try await t.setTimeZone("Etc/GMT+12", for: baker)  // UTC−12: still 12:00 on the 19th
            kiritimati = try await t.refreshed(kiritimati)
            baker = try await t.refreshed(baker)
            let kiriPhone = try await t.registerPhone(kiritimati)
            let bakerPhone = try await t.registerPhone(baker)

            func plan(_ s: Session, _ name: String, on day: String) async throws {
                let item = try await t.closetItem(s.accessToken, type: "dress", shape: .dress)
                let outfit = try await t.send(.POST, "/api/v1/me/outfits", json: #"{"name":"\#(name)","pieces":[{"closetItemId":"\#(item.id)"}]}"#, token: s.accessToken)
                    .content.decode(OutfitBody.self)
                let planned = try await t.send(.POST, "/api/v1/me/calendar", json: #"{"outfitId":"\#(outfit.id)","date":"\#(day)"}"#, token: s.accessToken)
                #expect(planned.status == .created)
            }
            try await plan(kiritimati, "Lagoon linen", on: "2026-11-21")  // 07:00 there is 17:00 UTC on the 20th
            try await plan(baker, "Island wool", on: "2026-11-20")  // 07:00 there is 19:00 UTC on the 20th

            /// The scheduler and the workers as they run in production, at `time` on the test clock.
            func tick(at time: Date) async throws -> [(text: String, token: String)] {
                t.clock.set(time)
                try await t.app.atelier.recurringJobs.scheduleDue(db: t.app.db, now: time)
                try await t.runJobs()
                return zip(sender.messages, sender.targets).map { ($0.text, $1.token) }
            }
            func at(_ hour: Int, _ minute: Int) -> Date { midnight.addingTimeInterval(TimeInterval(hour * 3600 + minute * 60)) }

            #expect(try await tick(at: at(16, 59)).isEmpty)
            let first = try await tick(at: at(17, 0))
            #expect(first.map(\.text) == ["Today's outfit: Lagoon linen."])
            #expect(first.map(\.token) == [kiriPhone])
            #expect(try await tick(at: at(17, 1)).count == 1)
            #expect(try await tick(at: at(18, 59)).count == 1)
            let second = try await tick(at: at(19, 0))
            #expect(second.count == 2)
            #expect(second.last?.text == "Today's outfit: Island wool.")
            #expect(second.last?.token == bakerPhone)
            #expect(try await tick(at: at(19, 30)).count == 2)
            let delivered = try await t.deliveries(of: baker)
            #expect(delivered.map(\.status) == [NotificationDelivery.Status.sent.rawValue])
        }
    }
}
