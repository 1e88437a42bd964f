import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import VaporTesting

@testable import Atelier

/// Records each push and answers as scripted (sent, unless told otherwise).
final class RecordingPushSender: PushSender {
    private let state = NIOLockedValueBox<(sent: [(PushMessage, PushTarget)], script: [PushResult])>(([], []))

    var messages: [PushMessage] { state.withLockedValue { $0.sent.map(\.0) } }
    var targets: [PushTarget] { state.withLockedValue { $0.sent.map(\.1) } }

    func answer(_ results: PushResult...) { state.withLockedValue { $0.script += results } }

    func send(_ message: PushMessage, to target: PushTarget) async throws -> PushResult {
        state.withLockedValue { state in
            state.sent.append((message, target))
            return state.script.isEmpty ? .sent(providerID: nil) : state.script.removeFirst()
        }
    }
}

extension TestApp {
    /// An APNs device token (hex) for the user, registered through the API.
    @discardableResult
    func registerPhone(_ session: Session, suffix: String = "") async throws -> String {
        let hex = session.user.id.replacingOccurrences(of: "-", with: "").lowercased()
        let token = String((hex + hex + String(repeating: "0", count: 64)).prefix(62)) + (suffix.isEmpty ? "aa" : suffix)
        let response = try await send(.PUT, "/api/v1/me/devices/\(token)", json: #"{"platform":"apns","bundleId":"dev.atelier.app"}"#, token: session.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
        return token
    }

    func runJobs() async throws {
        try await app.atelier.jobs.drain(db: app.db, core: app.atelier.core, parts: app.atelier.parts)
    }

    func deliveries(of session: Session) async throws -> [NotificationDelivery] {
        try await NotificationDelivery.query(on: app.db).filter(\.$userID == UUID(uuidString: session.user.id)!).sort(\.$createdAt).all()
    }

    func react(_ fan: Session, to postID: String, as kind: String = "heart") async throws {
        let response = try await send(.PUT, "/api/v1/posts/\(postID)/reaction", json: #"{"kind":"\#(kind)"}"#, token: fan.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
    }
}

@Suite("Notifications: push through one outbox")
struct PushDeliveryTests {
    @Test("a reaction gives exactly one push with its text and the unread count as badge, after the grouping window; a burst of 10 gives one push: 'Ana and 9 others'")
    func reactionAndGrouping() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let author = try await t.signUp(name: "Bea")
            try await t.registerPhone(author)
            let post = try await t.createdPost(author)
            let fans = try await t.signUpMany(11)
            for fan in fans {
                try await FriendService.befriend(UUID(uuidString: author.user.id)!, UUID(uuidString: fan.user.id)!, on: t.app.db, now: t.clock.now())
            }
            try await User.query(on: t.app.db).filter(\.$id == UUID(uuidString: fans[0].user.id)!).set(\.$displayName, to: "Ana").update()

            try await t.react(fans[0], to: post.id)
            try await t.runJobs()
            #expect(sender.messages.isEmpty, "a reaction waits the grouping window for more")
            t.clock.advance(by: NotificationKinds.groupingWindow)
            try await t.runJobs()
            #expect(sender.messages.count == 1)
            #expect(sender.messages.first?.text == "Ana reacted ❤️ to your outfit.")
            #expect(sender.messages.first?.badge == 1 && sender.messages.first?.link == "atelier://posts/\(post.id.lowercased())")
            #expect(sender.targets.first?.bundleID == "dev.atelier.app")
            try await t.runJobs()
            #expect(sender.messages.count == 1, "exactly one")
            #expect(try await t.deliveries(of: author).map(\.status) == ["sent"])

            // The next day's post, ten reactions within the window: one push.
            t.clock.advance(by: 86_400)
            let nextDay = try await t.refreshed(author)
            var fansNextDay: [Session] = []
            for fan in fans { fansNextDay.append(try await t.refreshed(fan)) }
            let second = try await t.createdPost(nextDay)
            for fan in fansNextDay.prefix(10) { try await t.react(fan, to: second.id) }
            t.clock.advance(by: NotificationKinds.groupingWindow)
            try await t.runJobs()
            #expect(sender.messages.count == 2)
            #expect(sender.messages.last?.text == "Ana and 9 others reacted to your outfit.")
            #expect(sender.messages.last?.badge == 11, "every reaction is in the inbox")
            #expect(try await t.notifications(nextDay).items.count == 11)
            // A reaction after the group went starts a new one.
            try await t.react(fansNextDay[10], to: second.id)
            t.clock.advance(by: NotificationKinds.groupingWindow)
            try await t.runJobs()
            #expect(sender.messages.count == 3 && sender.messages.last?.text.hasSuffix("reacted ❤️ to your outfit.") == true)
        }
    }

    @Test("quiet hours 22:00–07:00 in Europe/Bucharest: a reaction at 23:00 waits until 07:00 and none is dropped; an order-ready notice goes at once; the window holds across a daylight-saving change")
    func quietHours() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let author = try await t.signUp(name: "Bea")
            try await t.registerPhone(author)
            let set = try await t.send(.PUT, "/api/v1/me/notification-preferences",
                json: #"{"quietHours":{"start":"22:00","end":"07:00","timeZone":"Europe/Bucharest"}}"#, token: author.accessToken)
            #expect(set.status == .ok, "\(set.body.string)")
            // 2026-10-24 23:00 in Bucharest is 20:00 UTC (summer time); the clocks go back at 04:00
            // that night, so 07:00 on the 25th is 05:00 UTC.
            t.clock.set(ISO8601DateFormatter().date(from: "2026-10-24T20:00:00Z")!)
            let post = try await t.createdPost(author)
            let fan = try await t.signUp(name: "Ana")
            try await FriendService.befriend(UUID(uuidString: author.user.id)!, UUID(uuidString: fan.user.id)!, on: t.app.db, now: t.clock.now())
            try await t.react(fan, to: post.id)
            let recipient = UUID(uuidString: author.user.id)!
            try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                try await InboxService.record(.init(
                    recipientID: recipient, kind: .orderUpdated, actorID: nil, text: "Order 1042 at Atelier Nord is ready to collect.",
                    link: "atelier://orders/x", webPath: "/orders/x", critical: true), on: tx, now: t.clock.now())
            }
            t.clock.advance(by: 120)
            try await t.runJobs()
            #expect(sender.messages.map(\.text) == ["Order 1042 at Atelier Nord is ready to collect."], "the critical one goes at once")
            let waiting = try await t.deliveries(of: author).first { $0.kind == "reaction" }
            #expect(waiting?.status == "deferred" && waiting?.reason == "quietHours")
            #expect(waiting?.deliverAt == ISO8601DateFormatter().date(from: "2026-10-25T05:00:00Z"))
            t.clock.set(ISO8601DateFormatter().date(from: "2026-10-25T04:59:00Z")!)
            try await t.runJobs()
            #expect(sender.messages.count == 1, "06:59 local: still quiet")
            t.clock.set(ISO8601DateFormatter().date(from: "2026-10-25T05:00:00Z")!)
            try await t.runJobs()
            #expect(sender.messages.count == 2 && sender.messages.last?.text == "Ana reacted ❤️ to your outfit.")

            // The window itself, on both sides of the change and in a window that does not wrap.
            let bucharest = TimeZone(identifier: "Europe/Bucharest")!
            let night = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60, timeZone: bucharest)
            let iso = ISO8601DateFormatter()
            #expect(night.end(ifQuietAt: iso.date(from: "2026-03-28T21:30:00Z")!) == iso.date(from: "2026-03-29T04:00:00Z"), "into summer time: 07:00 EEST")
            #expect(night.end(ifQuietAt: iso.date(from: "2026-10-25T01:30:00Z")!) == iso.date(from: "2026-10-25T05:00:00Z"), "after midnight, same morning")
            #expect(night.end(ifQuietAt: iso.date(from: "2026-10-25T12:00:00Z")!) == nil)
            let lunch = QuietHours(startMinute: 12 * 60, endMinute: 13 * 60, timeZone: bucharest)
            #expect(lunch.end(ifQuietAt: iso.date(from: "2026-06-01T09:30:00Z")!) == iso.date(from: "2026-06-01T10:00:00Z"))
            #expect(lunch.end(ifQuietAt: iso.date(from: "2026-06-01T10:00:00Z")!) == nil, "the end is outside")
        }
    }

    @Test("an opted-out kind makes no send attempt and is notSent with the reason; no device is notSent too; the inbox entry is still written")
    func preferencesAndNoDevice() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let author = try await t.signUp(name: "Bea")
            let post = try await t.createdPost(author)
            let fan = try await t.signUp(name: "Ana")
            try await FriendService.befriend(UUID(uuidString: author.user.id)!, UUID(uuidString: fan.user.id)!, on: t.app.db, now: t.clock.now())
            try await t.react(fan, to: post.id)
            #expect(try await t.deliveries(of: author).map { "\($0.status) \($0.reason ?? "")" } == ["notSent noDevice"])

            try await t.registerPhone(author)
            let out = try await t.send(.PUT, "/api/v1/me/notification-preferences", json: #"{"kinds":[{"kind":"comment","push":false}]}"#, token: author.accessToken)
            #expect(out.status == .ok, "\(out.body.string)")
            struct Preferences: Decodable {
                struct Kind: Decodable { var kind: String; var push: Bool; var email: Bool }
                var kinds: [Kind]
            }
            let kinds = try out.content.decode(Preferences.self).kinds
            #expect(kinds.first { $0.kind == "comment" }?.push == false && kinds.first { $0.kind == "reaction" }?.push == true)
            #expect(kinds.first { $0.kind == "orderUpdated" }?.email == true && kinds.first { $0.kind == "reaction" }?.email == false)
            let comment = try await t.send(.POST, "/api/v1/posts/\(post.id)/comments", json: #"{"body":"Love it"}"#, token: fan.accessToken)
            #expect(comment.status == .created, "\(comment.body.string)")
            t.clock.advance(by: 3600)
            try await t.runJobs()
            #expect(sender.messages.isEmpty, "no send attempt")
            let outcomes = try await t.deliveries(of: author).map { "\($0.kind) \($0.status) \($0.reason ?? "")" }
            #expect(Set(outcomes) == ["reaction notSent noDevice", "comment notSent optedOut"] && outcomes.count == 2)
            #expect(try await t.notifications(t.refreshed(author)).items.count == 2, "the inbox has both")
        }
    }

    @Test("a crash between the commit and the send loses nothing: after a restart the push goes out exactly once and the inbox has one entry")
    func crashBetweenCommitAndSend() async throws {
        try await TestApp.with { t in
            let author = try await t.signUp(name: "Bea")
            try await t.registerPhone(author)
            let recipient = UUID(uuidString: author.user.id)!
            // The order moves and commits; the process dies before any worker ran.
            try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                try await InboxService.record(.init(
                    recipientID: recipient, kind: .orderUpdated, actorID: nil, text: "Order 7 is ready to collect.",
                    link: "atelier://orders/7", webPath: "/orders/7", critical: true), on: tx, now: t.clock.now())
            }
            // A fresh start: a new sender and a new runner over the same database.
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            var restarted = JobRunner()
            ScheduledWork.register(into: &restarted)
            try await restarted.drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            try await restarted.drain(db: t.app.db, core: t.app.atelier.core, parts: t.app.atelier.parts)
            #expect(sender.messages.map(\.text) == ["Order 7 is ready to collect."])
            #expect(try await t.notifications(author).items.count == 1)
        }
    }

    @Test("token clean-up and retries: a 410 newer than the registration removes the token, an older one keeps it; a bad token is removed; 429 with Retry-After waits that long")
    func cleanupAndRetries() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let person = try await t.signUp(name: "Bea")
            let token = try await t.registerPhone(person)
            let recipient = UUID(uuidString: person.user.id)!
            func notify(_ text: String) async throws {
                t.clock.advance(by: 1)  // deliveries in order of their creation
                try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                    try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: text,
                        link: "atelier://magazine", webPath: "/magazine"), on: tx, now: t.clock.now())
                }
            }
            func hasToken() async throws -> Bool { try await Device.query(on: t.app.db).filter(\.$token == token).count() == 1 }

            // The phone registered again after APNs saw the token go: it keeps it.
            sender.answer(.unregistered(since: t.clock.now().addingTimeInterval(-60)))
            try await notify("Issue 1")
            try await t.runJobs()
            #expect(try await hasToken())
            // APNs learnt of it after the registration: gone.
            sender.answer(.unregistered(since: t.clock.now().addingTimeInterval(60)))
            try await notify("Issue 2")
            try await t.runJobs()
            #expect(try await !hasToken())
            #expect(try await t.deliveries(of: person).suffix(2).map { "\($0.status) \($0.reason ?? "")" } == ["failed unregistered", "failed unregistered"])

            try await t.registerPhone(person)
            sender.answer(.retry(after: 30, reason: "TooManyRequests"))
            try await notify("Issue 3")
            try await t.runJobs()
            #expect(sender.messages.count == 3)
            t.clock.advance(by: 29)
            try await t.runJobs()
            #expect(sender.messages.count == 3, "not before Retry-After")
            t.clock.advance(by: 1)
            try await t.runJobs()
            #expect(sender.messages.count == 4 && sender.messages.last?.text == "Issue 3")
            #expect(try await t.deliveries(of: person).last?.status == "sent")

            sender.answer(.badToken(reason: "BadDeviceToken"))
            try await notify("Issue 4")
            try await t.runJobs()
            #expect(try await !hasToken())
        }
    }

    @Test("bad input is a specific 4xx: a malformed APNs token, an unknown kind, quiet hours in an unknown time zone or at no time")
    func badInput() async throws {
        try await TestApp.with { t in
            let s = try await t.signUp()
            let token = try await t.send(.PUT, "/api/v1/me/devices/not-a-token", json: #"{"platform":"apns"}"#, token: s.accessToken)
            #expect(token.status == .unprocessableEntity)
            #expect(try token.problem().fields == ["token"])
            let kind = try await t.send(.PUT, "/api/v1/me/notification-preferences", json: #"{"kinds":[{"kind":"horoscope","push":true}]}"#, token: s.accessToken)
            #expect(kind.status == .unprocessableEntity)
            #expect(try kind.problem().fields == ["kinds[0].kind"])
            let zone = try await t.send(.PUT, "/api/v1/me/notification-preferences",
                json: #"{"quietHours":{"start":"22:00","end":"07:00","timeZone":"Mars/Olympus"}}"#, token: s.accessToken)
            #expect(zone.status == .unprocessableEntity)
            #expect(try zone.problem().fields == ["quietHours.timeZone"])
            let time = try await t.send(.PUT, "/api/v1/me/notification-preferences",
                json: #"{"quietHours":{"start":"25:00","end":"7","timeZone":"UTC"}}"#, token: s.accessToken)
            #expect(time.status == .unprocessableEntity)
            #expect(Set(try time.problem().fields) == ["quietHours.start", "quietHours.end"])
            let saved = try await NotificationPreference.query(on: t.app.db).count() + QuietHoursSetting.query(on: t.app.db).count()
            #expect(saved == 0, "nothing was written")
        }
    }

    @Test("admins see failed pushes with the reason and failed jobs, and send them again; others get 404")
    func adminPages() async throws {
        try await TestApp.with { t in
            let sender = RecordingPushSender()
            t.app.atelier.push.use(sender, for: "apns")
            let f = try await t.catalogFixture()
            let person = try await t.signUp(name: "Bea")
            try await t.registerPhone(person)
            sender.answer(.rejected(reason: "TopicDisallowed"))
            let recipient = UUID(uuidString: person.user.id)!
            try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: "Issue 9 is out",
                    link: "atelier://magazine", webPath: "/magazine"), on: tx, now: t.clock.now())
            }
            try await t.runJobs()
            #expect(try await t.deliveries(of: person).map(\.status) == ["failed"])

            let web = CatalogWebTests()
            let forms = AccountsWebTests()
            #expect(try await web.get(t, "/admin/deliveries", cookie: try await web.webSignIn(t, email: person.user.email!)).status == .notFound)
            let admin = try await web.webSignIn(t, email: f.admin.user.email!)
            let page = try await forms.openForm(t, "/admin/deliveries", cookie: admin)
            #expect(page.html.contains("rejected: TopicDisallowed") && page.html.contains("Issue 9 is out"))
            let deliveryID = try #require(try await t.deliveries(of: person).first?.id?.idString)
            let again = try await forms.post(t, "/admin/deliveries/\(deliveryID)/retry", form: ["csrfToken": page.csrf], cookie: page.cookie)
            #expect(again.status == .seeOther)
            try await t.runJobs()
            #expect(sender.messages.count == 2 && sender.messages.last?.text == "Issue 9 is out")
            #expect(try await t.deliveries(of: person).map(\.status) == ["sent"])

            // A job that failed for good is listed with its reason and can be run again.
            _ = try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                try await JobQueue.enqueue(DeliverPushJob.self, .init(deliveryID: UUID()), key: "broken", runAt: t.clock.now(), on: tx, now: t.clock.now())
            }
            try await Job.query(on: t.app.db).filter(\.$key == "broken").set(\.$status, to: "failed").set(\.$lastError, to: "provider down").update()
            let jobs = try await forms.openForm(t, "/admin/jobs?status=failed", cookie: admin)
            #expect(jobs.html.contains("push.deliver") && jobs.html.contains("provider down") && jobs.html.contains("Failed (1)"))
            let jobID = try #require(try await Job.query(on: t.app.db).filter(\.$key == "broken").first()?.id?.idString)
            #expect(try await forms.post(t, "/admin/jobs/\(jobID)/retry", form: ["csrfToken": jobs.csrf], cookie: jobs.cookie).status == .seeOther)
            #expect(try await Job.query(on: t.app.db).filter(\.$key == "broken").first()?.status == "queued")
        }
    }
}
