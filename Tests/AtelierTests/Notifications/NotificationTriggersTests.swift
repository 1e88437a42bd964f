import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

extension TestApp {
    /// The scheduler and the job workers as production runs them, at `time` on the test clock.
    func tick(at time: Date) async throws {
        clock.set(time)
        try await app.atelier.recurringJobs.scheduleDue(db: app.db, now: time)
        try await runJobs()
    }

    func inbox(_ session: Session, kind: InboxEntry.Kind) async throws -> [InboxEntry] {
        try await InboxEntry.query(on: app.db).filter(\.$recipientID == UUID(uuidString: session.user.id)!)
            .filter(\.$kind == kind.rawValue).sort(\.$createdAt).all()
    }
}

@Suite("Notifications: moments starting, reservations ending, we miss you")
struct NotificationTriggersTests {
    /// 2026-11-20 10:00 UTC (12:00 in Bucharest).
    static let start = Date(timeIntervalSince1970: 1_795_132_800 + 10 * 3600)

    @Test("'starts in 1 hour' reaches the members who joined, once, by inbox and push; invited-only members hear nothing")
    func momentStarting() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            t.clock.set(Self.start)
            let creator = try await t.signUp(name: "Dana")
            var guests = [try await t.signUp(name: "Ana"), try await t.signUp(name: "Bo")]
            try await t.registerPhone(guests[0])
            for guest in guests { try await t.befriend(creator, guest) }
            let moment = try await t.createMoment(creator, name: "Picnic", startIn: 3 * 3600)
            #expect(try await t.invite(guests, to: moment, by: creator).status == .ok)
            #expect(try await t.join(moment, guests[0]).status == .ok)

            try await t.tick(at: Self.start.addingTimeInterval(1.9 * 3600))
            #expect(try await t.inbox(guests[0], kind: .momentStarting).isEmpty)
            try await t.move(to: Self.start.addingTimeInterval(2 * 3600 + 30), &guests)
            try await t.tick(at: Self.start.addingTimeInterval(2 * 3600 + 30))
            try await t.tick(at: Self.start.addingTimeInterval(2 * 3600 + 90))
            #expect(try await t.inbox(guests[0], kind: .momentStarting).map(\.text) == ["“Picnic” starts in 1 hour."])
            #expect(try await t.inbox(guests[1], kind: .momentStarting).isEmpty)
            #expect(sender.messages.filter { $0.kind == "momentStarting" }.map(\.text) == ["“Picnic” starts in 1 hour."])
        }
    }

    @Test("'your reservation ends in 3 hours' is critical: it goes at once through quiet hours and a push opt-out, once")
    func reservationExpiring() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            t.clock.set(Self.start)
            let shop = try await t.shopFixture()
            let shopper = try await t.signUp(name: "Sara")
            try await t.registerPhone(shopper)
            // Quiet all day long, and no order pushes wanted.
            let quiet = #"{"kinds":[{"kind":"reservationExpiring","push":false}],"quietHours":{"start":"00:00","end":"23:59","timeZone":"UTC"}}"#
            #expect(try await t.send(.PUT, "/api/v1/me/notification-preferences", json: quiet, token: shopper.accessToken).status == .ok)
            try await t.addToCart(shop.sizeS, token: shopper.accessToken)
            #expect(try await t.checkout(token: shopper.accessToken, fulfilment: "reserve").status == .created)  // held 48 hours

            try await t.tick(at: Self.start.addingTimeInterval(44.9 * 3600))
            #expect(try await t.inbox(shopper, kind: .reservationExpiring).isEmpty)
            try await t.tick(at: Self.start.addingTimeInterval(45 * 3600 + 60))
            try await t.tick(at: Self.start.addingTimeInterval(46 * 3600))
            let warnings = try await t.inbox(shopper, kind: .reservationExpiring)
            #expect(warnings.count == 1)
            #expect(warnings.first?.text.hasSuffix("ends in 3 hours: collect it before then.") == true)
            #expect(warnings.first?.webPath.hasPrefix("/orders/") == true)
            #expect(sender.messages.filter { $0.kind == "reservationExpiring" }.count == 1)
        }
    }

    @Test("'we miss you' after 14 days away, in the person's daytime, once per absence")
    func weMissYou() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            t.clock.set(Self.start)
            var away = try await t.signUp(name: "Iris")
            try await t.setTimeZone("Europe/Bucharest", for: away)
            try await t.registerPhone(away)
            let noPhone = try await t.signUp(name: "Noa")

            try await t.tick(at: Self.start.addingTimeInterval(13 * 86_400))
            #expect(try await t.inbox(away, kind: .weMissYou).isEmpty)
            // 14 days and 14 hours later: 02:00 in Bucharest, asleep.
            try await t.tick(at: Self.start.addingTimeInterval(14 * 86_400 + 14 * 3600))
            #expect(try await t.inbox(away, kind: .weMissYou).isEmpty)
            // 08:00 UTC: 10:00 in Bucharest.
            try await t.tick(at: Self.start.addingTimeInterval(14 * 86_400 + 22 * 3600))
            try await t.tick(at: Self.start.addingTimeInterval(16 * 86_400))
            #expect(try await t.inbox(away, kind: .weMissYou).map(\.text) == ["We miss you! See what is new in the stores near you."])
            #expect(try await t.inbox(noPhone, kind: .weMissYou).isEmpty)
            #expect(sender.messages.filter { $0.kind == "weMissYou" }.count == 1)

            // Back for a moment, then away again: a second nudge after the next 14 days.
            away = try await t.refreshed(away)
            try await t.tick(at: Self.start.addingTimeInterval(29 * 86_400))
            #expect(try await t.inbox(away, kind: .weMissYou).count == 1)
            try await t.tick(at: Self.start.addingTimeInterval(31 * 86_400))
            #expect(try await t.inbox(away, kind: .weMissYou).count == 2)
        }
    }
}
