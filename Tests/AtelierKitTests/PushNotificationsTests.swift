import AtelierKit
import Foundation
import Testing

private func signedIn(_ server: LiveServer) async throws -> AtelierSession {
    let session = AtelierSession(baseURL: server.baseURL, tokenStore: InMemoryTokenStore())
    try await session.signUp(email: uniqueEmail(), password: "correct horse battery", displayName: "Kit User")
    return session
}

private func devices(_ session: AtelierSession) async throws -> [NotificationSettings.Device] {
    var all: [NotificationSettings.Device] = []
    for try await device in session.notifications.devices() { all.append(device) }
    return all
}

/// The error `body` throws, or nil.
private func settingsError<T>(_ body: () async throws -> T) async -> NotificationSettingsError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? NotificationSettingsError
    }
}

@Suite("Push devices and notification preferences through AtelierKit against a live server")
struct PushNotificationsTests {
    @Test("an APNs token from Data is stored as lower-case hex with its environment and bundle id; registering again updates it in place")
    func registerAPNsToken() async throws {
        try await LiveServer.with { server in
            let session = try await signedIn(server)
            // 32 bytes, as APNs gives them, with a zero byte and bytes below 0x10 to check the padding.
            let bytes: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x0F, 0xA5, 0x5A]
            let token = Data(Array(repeating: bytes, count: 4).joined())
            let hex = String(repeating: "deadbeef000fa55a", count: 4)
            #expect(NotificationSettings.apnsTokenString(token) == hex)

            let registered = try await session.notifications.registerDevice(
                apnsToken: token, environment: .sandbox, bundleID: "dev.atelier.app", locale: "en", appVersion: "1.0")
            #expect(registered.token == hex)
            #expect(registered.platform == .apns)
            #expect(registered.apnsEnvironment == .sandbox)
            #expect(registered.bundleId == "dev.atelier.app")
            #expect(registered.locale == "en")
            #expect(registered.appVersion == "1.0")
            let stored = try await devices(session)
            #expect(stored == [registered])

            server.clock.advance(by: 60)
            let again = try await session.notifications.registerDevice(
                apnsToken: token, environment: .production, bundleID: "dev.atelier.app", locale: "ro", appVersion: "1.1")
            #expect(again.token == hex)
            #expect(again.apnsEnvironment == .production)
            #expect(again.locale == "ro")
            #expect(again.appVersion == "1.1")
            #expect(again.createdAt == registered.createdAt)
            #expect(again.updatedAt > registered.updatedAt)
            let storedAgain = try await devices(session)
            #expect(storedAgain == [again])
        }
    }

    @Test("an FCM token registers without APNs fields, unregisters once, and a token too short for APNs is a typed 422")
    func fcmUnregisterAndInvalid() async throws {
        try await LiveServer.with { server in
            let session = try await signedIn(server)
            let fcmToken = "fcm-token:APA91b_\(UUID().uuidString.lowercased())"
            let device = try await session.notifications.registerDevice(fcmToken: fcmToken, locale: "ro", appVersion: "2.0")
            #expect(device.token == fcmToken)
            #expect(device.platform == .fcm)
            #expect(device.apnsEnvironment == nil)
            #expect(device.bundleId == nil)

            try await session.notifications.unregisterDevice(token: fcmToken)
            let left = try await devices(session)
            #expect(left.isEmpty)
            let again = await settingsError { try await session.notifications.unregisterDevice(token: fcmToken) }
            guard case .notFound(let notFound)? = again else { throw Unexpected("expected .notFound, got \(String(describing: again))") }
            #expect(notFound.status == 404)

            let short = await settingsError {
                try await session.notifications.registerDevice(apnsToken: Data([0xDE, 0xAD, 0xBE, 0xEF]), environment: .production)
            }
            guard case .invalid(let problem)? = short else { throw Unexpected("expected .invalid, got \(String(describing: short))") }
            #expect(problem.status == 422)
            #expect(problem.message(for: "token") != nil)
        }
    }

    @Test("preferences: every kind with its defaults, one kind's push changed, quiet hours set and cleared, an unknown kind a typed 422")
    func preferences() async throws {
        try await LiveServer.with { server in
            let settings = try await signedIn(server).notifications
            let initial = try await settings.preferences()
            // Every kind of the contract is listed (the server may know newer ones), pushed by default.
            #expect(Set(Components.Schemas.NotificationKind.allCases.map(\.rawValue)).isSubset(of: Set(initial.kinds.map(\.kind))))
            #expect(initial.kinds.allSatisfy { $0.push })
            #expect(initial.setting(for: .orderUpdated)?.email == true)  // receipts are mailed
            #expect(initial.setting(for: .reaction)?.email == false)
            #expect(initial.quietHours == nil)

            let muted = try await settings.setPreferences([.init(.reaction, push: false)])
            #expect(muted.setting(for: .reaction)?.push == false)
            #expect(muted.setting(for: .reaction)?.email == false)  // left as it was
            #expect(muted.kinds.filter { !$0.push }.map(\.kind) == ["reaction"])

            let window = NotificationSettings.QuietHours(
                start: .init(hour: 22), end: .init(hour: 7, minute: 30), timeZone: "Europe/Bucharest")
            let quiet = try await settings.setPreferences(quietHours: .set(window))
            #expect(quiet.quietHours == Components.Schemas.QuietHours(start: "22:00", end: "07:30", timeZone: "Europe/Bucharest"))
            #expect(quiet.quietWindow == window)
            #expect(quiet.setting(for: .reaction)?.push == false)  // the kinds stay as they were
            let read = try await settings.preferences()
            #expect(read == quiet)

            let unknown = await settingsError { try await settings.setPreferences([.init(kind: "carrierPigeon", push: true)]) }
            guard case .invalid(let problem)? = unknown else { throw Unexpected("expected .invalid, got \(String(describing: unknown))") }
            #expect(problem.status == 422)
            #expect(problem.message(for: "kinds[0].kind") != nil)
            let badZone = await settingsError {
                try await settings.setPreferences(quietHours: .set(.init(start: .init(hour: 23), end: .init(hour: 6), timeZone: "Mars/Olympus")))
            }
            #expect(badZone?.problem.message(for: "quietHours.timeZone") != nil)
            let unchanged = try await settings.preferences()
            #expect(unchanged == quiet)

            let cleared = try await settings.setPreferences([.init(.reaction, push: true)], quietHours: .clear)
            #expect(cleared.quietHours == nil)
            #expect(cleared.quietWindow == nil)
            #expect(cleared.kinds.allSatisfy { $0.push })
        }
    }

    @Test("quiet-hour times read and write as HH:MM")
    func quietHourTimes() {
        typealias Time = NotificationSettings.QuietHours.Time
        #expect(Time(hour: 7, minute: 5).text == "07:05")
        #expect(Time(hour: 22).text == "22:00")
        #expect(Time("07:30") == Time(hour: 7, minute: 30))
        #expect(Time("23:59") == Time(hour: 23, minute: 59))
        for junk in ["24:00", "7:30", "07:60", "0730", "07:30:00", "", "ab:cd"] {
            #expect(Time(junk) == nil, "\(junk)")
        }
        #expect(Time(hour: 6) < Time(hour: 6, minute: 1))
    }
}
