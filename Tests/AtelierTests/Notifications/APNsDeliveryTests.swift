import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

/// The APNs client against a local HTTP/2 server standing in for Apple's (FakeAPNsServer).
@Suite("Notifications: APNs over HTTP/2 against a local fake")
struct APNsDeliveryTests {
    func withFake(_ body: (TestApp, FakeAPNsServer) async throws -> Void) async throws {
        let fake = try await FakeAPNsServer.start()
        do {
            try await TestApp.with(adjust: { fake.configure(&$0) }) { t in try await body(t, fake) }
        } catch {
            try await fake.stop()
            throw error
        }
        try await fake.stop()
    }

    @Test("a reaction produces exactly one push: a valid provider JWT, the topic, push type and collapse id, the text and the unread count as badge, over HTTP/2")
    func reaction() async throws {
        try await withFake { t, fake in
            let author = try await t.signUp(name: "Bea")
            let token = try await t.registerPhone(author)
            let post = try await t.createdPost(author)
            let fan = try await t.signUp(name: "Ana")
            try await FriendService.befriend(UUID(uuidString: author.user.id)!, UUID(uuidString: fan.user.id)!, on: t.app.db, now: t.clock.now())
            try await t.react(fan, to: post.id)
            t.clock.advance(by: NotificationKinds.groupingWindow)
            try await t.runJobs()
            try await t.runJobs()
            #expect(fake.received.count == 1)
            let push = try #require(fake.received.first)
            #expect(push.problems.isEmpty, "\(push.problems)")
            #expect(push.httpMajorVersion == 2 && push.deviceToken == token)
            #expect(push.topic == "dev.atelier.app" && push.pushType == "alert")
            #expect(push.collapseID == "reaction atelier://posts/\(post.id.lowercased())")
            #expect(push.payload["aps"]?["alert"]?["body"] == .string("Ana reacted ❤️ to your outfit."))
            #expect(push.payload["aps"]?["badge"] == .number(1))
            #expect(push.payload["link"] == .string("atelier://posts/\(post.id.lowercased())"))
            #expect(try await t.deliveries(of: author).map(\.status) == ["sent"])
        }
    }

    @Test("a 410 later than the registration removes the token, one older than a re-registration keeps it; a 429 with Retry-After is retried after that delay; the provider token is reused for 50 minutes")
    func answers() async throws {
        try await withFake { t, fake in
            let person = try await t.signUp(name: "Bea")
            let token = try await t.registerPhone(person)
            let recipient = UUID(uuidString: person.user.id)!
            func notify(_ text: String) async throws {
                t.clock.advance(by: 1)
                try await t.app.atelier.writeTransaction(on: t.app.db) { tx in
                    try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: text,
                        link: "atelier://magazine", webPath: "/magazine"), on: tx, now: t.clock.now())
                }
                try await t.runJobs()
            }
            func hasToken() async throws -> Bool { try await Device.query(on: t.app.db).filter(\.$token == token).count() == 1 }
            func milliseconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970 * 1000) }

            fake.answer(.init(status: .gone, body: #"{"reason":"Unregistered","timestamp":\#(milliseconds(t.clock.now().addingTimeInterval(-3600)))}"#))
            try await notify("Issue 1")
            #expect(try await hasToken(), "registered after APNs saw it go")
            fake.answer(.init(status: .gone, body: #"{"reason":"Unregistered","timestamp":\#(milliseconds(t.clock.now().addingTimeInterval(3600)))}"#))
            try await notify("Issue 2")
            #expect(try await !hasToken())

            try await t.registerPhone(person)
            fake.answer(.init(status: .tooManyRequests, headers: [("Retry-After", "30")], body: #"{"reason":"TooManyRequests"}"#))
            try await notify("Issue 3")
            #expect(fake.received.count == 3)
            t.clock.advance(by: 29)
            try await t.runJobs()
            #expect(fake.received.count == 3, "not before Retry-After")
            t.clock.advance(by: 1)
            try await t.runJobs()
            #expect(fake.received.count == 4)
            #expect(try await t.deliveries(of: person).last?.status == "sent")
            #expect(fake.received.allSatisfy { $0.problems.isEmpty })
            #expect(Set(fake.received.map(\.jwt)).count == 1, "one provider token for all four")
            t.clock.advance(by: APNSProviderToken.reuse)
            try await notify("Issue 4")
            #expect(Set(fake.received.map(\.jwt)).count == 2, "a new one after 50 minutes")
            #expect(fake.received.last?.problems.isEmpty == true)
        }
    }

    @Test("a payload over 4 096 bytes is shortened to fit, not refused")
    func payloadLimit() throws {
        let message = PushMessage(kind: "comment", text: String(repeating: "ă", count: 5000), link: "atelier://posts/x", badge: 3, collapseID: nil)
        let data = try APNSClient.payload(message)
        #expect(data.count <= 4096 && data.count > 3900)
        #expect(String(decoding: data, as: UTF8.self).contains("…"))
    }
}
