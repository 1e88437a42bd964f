import Fluent
import Foundation
import Testing
import VaporTesting

@testable import Atelier

extension TestApp {
    /// An FCM registration token for the user's Android phone, registered through the API.
    @discardableResult
    func registerAndroid(_ session: Session) async throws -> String {
        let token = "android-" + session.user.id.replacingOccurrences(of: "-", with: "").lowercased() + "-fcm"
        let response = try await send(.PUT, "/api/v1/me/devices/\(token)", json: #"{"platform":"fcm","appVersion":"1.0"}"#, token: session.accessToken)
        #expect(response.status == .ok, "\(response.body.string)")
        return token
    }

    /// A magazine notice to each of `sessions`' users (sent at once, neither grouped nor critical), then the jobs.
    func notifyIssue(_ text: String, to sessions: Session...) async throws {
        let recipients = sessions.map { UUID(uuidString: $0.user.id)! }
        let now = clock.now()
        try await app.atelier.writeTransaction(on: app.db) { tx in
            for recipient in recipients {
                try await InboxService.record(.init(recipientID: recipient, kind: .magazineIssue, actorID: nil, text: text,
                    link: "atelier://magazine", webPath: "/magazine"), on: tx, now: now)
            }
        }
        try await runJobs()
    }
}

/// The FCM client against a local server standing in for Google's token endpoint and FCM (FakeFCMServer).
@Suite("Notifications: FCM HTTP v1 against a local fake")
struct FCMDeliveryTests {
    func withFake(_ body: (TestApp, FakeFCMServer) async throws -> Void) async throws {
        let fake = try await FakeFCMServer.start()
        do {
            try await TestApp.with(adjust: { fake.configure(&$0) }) { t in try await body(t, fake) }
        } catch {
            try await fake.stop()
            throw error
        }
        try await fake.stop()
    }

    @Test("pushes to two people's Android phones go out with one OAuth token exchange, each with its token, text, string data and the unread count as badge; a new token a minute before the old one expires")
    func delivery() async throws {
        try await withFake { t, fake in
            let bea = try await t.signUp(name: "Bea")
            let beaPhone = try await t.registerAndroid(bea)
            let cai = try await t.signUp(name: "Cai")
            let caiPhone = try await t.registerAndroid(cai)
            let post = try await t.createdPost(bea)
            let ana = try await t.signUp(name: "Ana")
            try await FriendService.befriend(UUID(uuidString: bea.user.id)!, UUID(uuidString: ana.user.id)!, on: t.app.db, now: t.clock.now())

            // Two pushes sent together before there is a token: they wait for one exchange.
            let firstExchange = t.clock.now()
            try await t.notifyIssue("Issue 12 is out", to: bea, cai)
            #expect(fake.received.count == 2)
            t.clock.advance(by: 1)
            try await t.react(ana, to: post.id)
            t.clock.advance(by: NotificationKinds.groupingWindow)
            try await t.runJobs()
            try await t.runJobs()

            #expect(fake.received.count == 3)
            #expect(fake.received.allSatisfy { $0.problems.isEmpty && $0.status == .ok }, "\(fake.received.map(\.problems))")
            #expect(fake.tokenExchanges == 1, "one OAuth token for all three")
            #expect(fake.assertionProblems.isEmpty, "\(fake.assertionProblems)")

            let link = "atelier://posts/\(post.id.lowercased())"
            let reaction = fake.received[2].message
            #expect(reaction["token"] == .string(beaPhone))
            #expect(reaction["notification"]?["title"] == .string("Atelier"))
            #expect(reaction["notification"]?["body"] == .string("Ana reacted ❤️ to your outfit."))
            #expect(reaction["data"]?["link"] == .string(link) && reaction["data"]?["kind"] == .string("reaction"))
            #expect(reaction["data"]?["badge"] == .string("2"), "the issue and the reaction are unread")
            #expect(reaction["android"]?["priority"] == .string("high"))
            #expect(reaction["android"]?["collapse_key"] == .string("reaction \(link)"))
            #expect(reaction["android"]?["notification"]?["tag"] == .string("reaction \(link)"))
            #expect(reaction["android"]?["notification"]?["notification_count"] == .number(2))

            let beaIssue = try #require(fake.received.first { $0.deviceToken == beaPhone && $0.message["data"]?["kind"] == .string("magazineIssue") })
            #expect(beaIssue.message["notification"]?["body"] == .string("Issue 12 is out"))
            #expect(beaIssue.message["data"]?["badge"] == .string("1"))
            #expect(beaIssue.message["android"]?["notification"]?["notification_count"] == .number(1))
            #expect(beaIssue.message["android"]?["collapse_key"] == nil, "not grouped")
            let caiIssue = try #require(fake.received.first { $0.deviceToken == caiPhone })
            #expect(caiIssue.message["notification"]?["body"] == .string("Issue 12 is out"))
            #expect(caiIssue.message["data"]?["badge"] == .string("1"))
            #expect(try await t.deliveries(of: bea).map(\.status) == ["sent", "sent"])
            #expect(try await t.deliveries(of: cai).map(\.status) == ["sent"])

            // Google's token lasts 3 599 s; it is replaced 60 s before that.
            t.clock.set(firstExchange.addingTimeInterval(TimeInterval(fake.tokenLifetime) - FCMAccessToken.margin - 1))
            try await t.notifyIssue("Issue 13 is out", to: cai)
            #expect(fake.tokenExchanges == 1)
            t.clock.set(firstExchange.addingTimeInterval(TimeInterval(fake.tokenLifetime) - FCMAccessToken.margin))
            try await t.notifyIssue("Issue 14 is out", to: cai)
            #expect(fake.tokenExchanges == 2)
            #expect(fake.accepted.count == 5)
            #expect(Set(fake.received.map(\.bearer)).count == 2)
        }
    }

    @Test("an UNREGISTERED answer removes the device and the delivery ends failed, reason unregistered")
    func unregistered() async throws {
        try await withFake { t, fake in
            let bea = try await t.signUp(name: "Bea")
            let phone = try await t.registerAndroid(bea)
            fake.unregister(phone)
            try await t.notifyIssue("Issue 12 is out", to: bea)
            #expect(fake.received.map(\.status) == [.notFound])
            #expect(try await Device.query(on: t.app.db).filter(\.$token == phone).count() == 0)
            let delivery = try #require(try await t.deliveries(of: bea).last)
            #expect(delivery.status == "failed" && delivery.reason == NotificationDelivery.Reason.unregistered.rawValue)
            t.clock.advance(by: 3600)
            try await t.runJobs()
            #expect(fake.received.count == 1, "not tried again")
        }
    }

    @Test("a 429 with Retry-After: 30 is retried after 30 s and not before; a 401 drops the OAuth token and the retry gets a new one")
    func retries() async throws {
        try await withFake { t, fake in
            let bea = try await t.signUp(name: "Bea")
            try await t.registerAndroid(bea)
            fake.answer(.init(status: .tooManyRequests, headers: [("Retry-After", "30")], body: """
                {"error":{"code":429,"message":"Quota exceeded.","status":"RESOURCE_EXHAUSTED",\
                "details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"QUOTA_EXCEEDED"}]}}
                """))
            try await t.notifyIssue("Issue 12 is out", to: bea)
            #expect(fake.received.map(\.status) == [.tooManyRequests])
            #expect(try await t.deliveries(of: bea).last?.lastError?.hasPrefix("QUOTA_EXCEEDED") == true)
            t.clock.advance(by: 29)
            try await t.runJobs()
            #expect(fake.received.count == 1, "not before Retry-After")
            t.clock.advance(by: 1)
            try await t.runJobs()
            #expect(fake.received.map(\.status) == [.tooManyRequests, .ok])
            #expect(try await t.deliveries(of: bea).last?.status == "sent")

            fake.revokeAccessTokens()
            t.clock.advance(by: 1)
            try await t.notifyIssue("Issue 13 is out", to: bea)
            #expect(fake.received.last?.status == .unauthorized)
            #expect(try await t.deliveries(of: bea).last?.status != "sent")
            // The first retry waits at most 5 s (backoff with jitter).
            t.clock.advance(by: 5)
            try await t.runJobs()
            #expect(fake.received.map(\.status) == [.tooManyRequests, .ok, .unauthorized, .ok])
            #expect(fake.tokenExchanges == 2)
            #expect(try await t.deliveries(of: bea).last?.status == "sent")
        }
    }

    @Test("a service account key file that is not usable stops start-up naming the variable and the field, never the key")
    func badServiceAccount() throws {
        let secret = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCsecret"
        let file = #"{"type":"service_account","project_id":"atelier-test","private_key_id":"k1","private_key":"-----BEGIN PRIVATE KEY-----\n\#(secret)\n-----END PRIVATE KEY-----\n","client_email":"push@atelier-test.iam.gserviceaccount.com","token_uri":"https://oauth2.googleapis.com/token"}"#
        do {
            _ = try PushChannels(config: AppConfig.fromEnvironment(["FCM_SERVICE_ACCOUNT": file]), clock: SystemClock())
            Issue.record("an unusable private key was accepted")
        } catch {
            let text = "\(error)"
            #expect(error is ConfigError && text.contains("FCM_SERVICE_ACCOUNT") && text.contains("private_key"), "\(text)")
            #expect(!text.contains(secret) && !text.contains("BEGIN"))
        }
        do {
            _ = try PushChannels(
                config: AppConfig.fromEnvironment(["FCM_SERVICE_ACCOUNT": #"{"type":"service_account","project_id":"atelier-test"}"#]),
                clock: SystemClock())
            Issue.record("a key file without a key was accepted")
        } catch {
            #expect("\(error)".contains("FCM_SERVICE_ACCOUNT") && "\(error)".contains("client_email"), "\(error)")
        }
    }
}
