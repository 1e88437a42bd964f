import AtelierAPI
import Foundation
import OpenAPIRuntime

extension AtelierSession {
    /// The signed-in user's push devices and notification preferences.
    public var notifications: NotificationSettings { NotificationSettings(client: client) }
}

/// Registers this device for pushes and reads and changes which kinds of notification reach the
/// user on which channel, and their quiet hours.
///
///     // In application(_:didRegisterForRemoteNotificationsWithDeviceToken:)
///     #if DEBUG
///     let environment = NotificationSettings.APNsEnvironment.sandbox
///     #else
///     let environment = NotificationSettings.APNsEnvironment.production
///     #endif
///     try await session.notifications.registerDevice(
///         apnsToken: deviceToken, environment: environment, bundleID: Bundle.main.bundleIdentifier,
///         locale: Locale.preferredLanguages.first, appVersion: appVersion)
///
/// Every notification lands in the inbox whatever the preferences say. Refusals throw
/// `NotificationSettingsError` (a 401 that a token refresh could not fix throws
/// `AtelierError.signedOut`).
public struct NotificationSettings: Sendable {
    public typealias Device = Components.Schemas.Device
    public typealias Preferences = Components.Schemas.NotificationPreferences
    /// Which of Apple's push services the app's token belongs to: `.sandbox` for development
    /// builds (the `aps-environment` entitlement says `development`), `.production` otherwise.
    public typealias APNsEnvironment = Components.Schemas.DeviceRegistration.ApnsEnvironmentPayload

    private let client: Client

    public init(client: Client) {
        self.client = client
    }

    // MARK: Devices

    /// Registers an APNs device token, as `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
    /// gives it; it is sent as lower-case hex (see `apnsTokenString(_:)`). Registering again (a new
    /// app version, another language, another account) updates the device in place; signing out
    /// the session that registered it removes it.
    /// - Parameters:
    ///   - environment: a token from the wrong environment is refused by Apple, and the server then
    ///     forgets it.
    ///   - bundleID: the app's bundle id, the push topic; nil uses the server's default topic.
    ///   - locale: the language pushes are written in (`en`, `ro`).
    /// - Throws: `NotificationSettingsError.invalid` for a token that is not an APNs token or a
    ///   malformed bundle id, locale or version.
    @discardableResult
    public func registerDevice(
        apnsToken: Data, environment: APNsEnvironment, bundleID: String? = nil, locale: String? = nil, appVersion: String? = nil
    ) async throws -> Device {
        try await register(
            token: Self.apnsTokenString(apnsToken),
            .init(platform: .apns, appVersion: appVersion, locale: locale, apnsEnvironment: environment, bundleId: bundleID))
    }

    /// Registers a Firebase Cloud Messaging registration token, as the Firebase SDK gives it.
    @discardableResult
    public func registerDevice(fcmToken: String, locale: String? = nil, appVersion: String? = nil) async throws -> Device {
        try await register(token: fcmToken, .init(platform: .fcm, appVersion: appVersion, locale: locale))
    }

    /// Stops pushes to an APNs device token of this account.
    /// - Throws: `NotificationSettingsError.notFound` when this account has no such token.
    public func unregisterDevice(apnsToken: Data) async throws {
        try await unregisterDevice(token: Self.apnsTokenString(apnsToken))
    }

    /// Stops pushes to a token of this account, as `Device.token` has it.
    /// - Throws: `NotificationSettingsError.notFound` when this account has no such token.
    public func unregisterDevice(token: String) async throws {
        switch try await client.unregisterDevice(path: .init(token: token)) {
        case .noContent(_): return
        case .unauthorized(let r): throw notificationFailure("unregisterDevice", 401, r.problem)
        case .forbidden(let r): throw notificationFailure("unregisterDevice", 403, r.problem)
        case .notFound(let r): throw notificationFailure("unregisterDevice", 404, r.problem)
        case .undocumented(let status, _): throw notificationFailure("unregisterDevice", status, nil)
        }
    }

    /// The push devices registered to this account, newest first, fetched page by page.
    public func devices(pageSize: Int? = nil) -> CursorPages<Device> {
        let client = client
        return CursorPages { cursor in
            switch try await client.listMyDevices(query: .init(limit: pageSize, cursor: cursor)) {
            case .ok(let ok):
                let page = try ok.body.json
                return (page.items, page.nextCursor)
            case .badRequest(let r): throw notificationFailure("listMyDevices", 400, r.problem)
            case .unauthorized(let r): throw notificationFailure("listMyDevices", 401, r.problem)
            case .forbidden(let r): throw notificationFailure("listMyDevices", 403, r.problem)
            case .undocumented(let status, _): throw notificationFailure("listMyDevices", status, nil)
            }
        }
    }

    /// An APNs device token as the server stores it: lower-case hex, two digits a byte.
    public static func apnsTokenString(_ apnsToken: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(apnsToken.count * 2)
        for byte in apnsToken {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private func register(token: String, _ registration: Components.Schemas.DeviceRegistration) async throws -> Device {
        switch try await client.registerDevice(path: .init(token: token), body: .json(registration)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw notificationFailure("registerDevice", 400, r.problem)
        case .unauthorized(let r): throw notificationFailure("registerDevice", 401, r.problem)
        case .forbidden(let r): throw notificationFailure("registerDevice", 403, r.problem)
        case .contentTooLarge(let r): throw notificationFailure("registerDevice", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw notificationFailure("registerDevice", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw notificationFailure("registerDevice", 422, r.problem)
        case .undocumented(let status, _): throw notificationFailure("registerDevice", status, nil)
        }
    }

    // MARK: Preferences

    /// Every kind of notification with its channels, and the quiet hours if any are set.
    public func preferences() async throws -> Preferences {
        switch try await client.getNotificationPreferences() {
        case .ok(let ok): return try ok.body.json
        case .unauthorized(let r): throw notificationFailure("getNotificationPreferences", 401, r.problem)
        case .forbidden(let r): throw notificationFailure("getNotificationPreferences", 403, r.problem)
        case .undocumented(let status, _): throw notificationFailure("getNotificationPreferences", status, nil)
        }
    }

    /// Changes the channels named in `changes` (the others stay as they are) and the quiet hours,
    /// all or nothing, and answers with the preferences afterwards. Critical kinds (order ready,
    /// reservation expiring, security) are still pushed through quiet hours and push opt-outs.
    /// - Throws: `NotificationSettingsError.invalid` naming each bad field: an unknown kind
    ///   (`kinds[0].kind`), a time that is not HH:MM, a window that starts when it ends, an unknown
    ///   time zone (`quietHours.timeZone`).
    @discardableResult
    public func setPreferences(_ changes: [KindChange] = [], quietHours: QuietHoursChange = .keep) async throws -> Preferences {
        let input: Components.Schemas.NotificationPreferencesInput
        switch quietHours {
        case .keep: input = .init(kinds: changes.map(\.schema))
        case .set(let window): input = .init(kinds: changes.map(\.schema), quietHours: window.schema)
        case .clear: input = .init(kinds: changes.map(\.schema), clearQuietHours: true)
        }
        switch try await client.putNotificationPreferences(body: .json(input)) {
        case .ok(let ok): return try ok.body.json
        case .badRequest(let r): throw notificationFailure("putNotificationPreferences", 400, r.problem)
        case .unauthorized(let r): throw notificationFailure("putNotificationPreferences", 401, r.problem)
        case .forbidden(let r): throw notificationFailure("putNotificationPreferences", 403, r.problem)
        case .contentTooLarge(let r): throw notificationFailure("putNotificationPreferences", 413, try? r.body.applicationProblemJson)
        case .unsupportedMediaType(let r): throw notificationFailure("putNotificationPreferences", 415, try? r.body.applicationProblemJson)
        case .unprocessableContent(let r): throw notificationFailure("putNotificationPreferences", 422, r.problem)
        case .undocumented(let status, _): throw notificationFailure("putNotificationPreferences", status, nil)
        }
    }

    /// A change to one kind's channels; a channel left nil stays as it is.
    public struct KindChange: Sendable, Hashable {
        /// The kind's name, a `Components.Schemas.NotificationKind` raw value. A string, so that
        /// kinds newer than this SDK can be set too.
        public var kind: String
        public var push: Bool?
        public var email: Bool?

        public init(_ kind: Components.Schemas.NotificationKind, push: Bool? = nil, email: Bool? = nil) {
            self.init(kind: kind.rawValue, push: push, email: email)
        }

        public init(kind: String, push: Bool? = nil, email: Bool? = nil) {
            self.kind = kind
            self.push = push
            self.email = email
        }

        var schema: Components.Schemas.NotificationPreferencesInput.KindsPayloadPayload {
            .init(kind: kind, push: push, email: email)
        }
    }

    /// What `setPreferences` does to the quiet hours.
    public enum QuietHoursChange: Sendable, Hashable {
        /// Leaves them as they are.
        case keep
        /// Sets (or replaces) the window.
        case set(QuietHours)
        /// Removes them: pushes go out at any hour.
        case clear
    }

    /// A daily window of local time in which non-critical pushes wait until it ends (none is
    /// dropped). It may wrap midnight (22:00–07:00).
    public struct QuietHours: Sendable, Hashable {
        public var start: Time
        public var end: Time
        /// An IANA time zone identifier (`Europe/Bucharest`).
        public var timeZone: String

        /// - Parameter timeZone: an IANA identifier; by default the device's.
        public init(start: Time, end: Time, timeZone: String = TimeZone.current.identifier) {
            self.start = start
            self.end = end
            self.timeZone = timeZone
        }

        /// The server's window; nil if a time is not HH:MM.
        public init?(_ schema: Components.Schemas.QuietHours) {
            guard let start = Time(schema.start), let end = Time(schema.end) else { return nil }
            self.init(start: start, end: end, timeZone: schema.timeZone)
        }

        public var schema: Components.Schemas.QuietHours {
            .init(start: start.text, end: end.text, timeZone: timeZone)
        }

        /// A time of day on a 24-hour clock.
        public struct Time: Sendable, Hashable, Comparable {
            /// 0–23.
            public var hour: Int
            /// 0–59.
            public var minute: Int

            public init(hour: Int, minute: Int = 0) {
                self.hour = hour
                self.minute = minute
            }

            /// From `HH:MM` ("07:30"); nil for anything else.
            public init?(_ text: String) {
                let parts = text.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]), let minute = Int(parts[1]),
                      (0..<24).contains(hour), (0..<60).contains(minute)
                else { return nil }
                self.init(hour: hour, minute: minute)
            }

            /// As the API writes it: `HH:MM`.
            public var text: String {
                func twoDigits(_ value: Int) -> String { value >= 0 && value < 10 ? "0\(value)" : "\(value)" }
                return "\(twoDigits(hour)):\(twoDigits(minute))"
            }

            public static func < (lhs: Time, rhs: Time) -> Bool {
                (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
            }
        }
    }
}

extension Components.Schemas.NotificationPreferences {
    /// The channels of one kind; nil for a kind the server did not list.
    public func setting(for kind: Components.Schemas.NotificationKind) -> Components.Schemas.NotificationKindPreference? {
        setting(for: kind.rawValue)
    }

    public func setting(for kind: String) -> Components.Schemas.NotificationKindPreference? {
        kinds.first { $0.kind == kind }
    }

    /// `quietHours` as a `NotificationSettings.QuietHours`; nil when none are set.
    public var quietWindow: NotificationSettings.QuietHours? {
        quietHours.flatMap { NotificationSettings.QuietHours($0) }
    }
}

/// What the server refused in push registration or notification preferences; each case carries
/// the RFC 9457 problem.
public enum NotificationSettingsError: Error, Sendable, Hashable {
    /// 422: `errors` names each invalid field (`token`, `kinds[0].kind`, `quietHours.timeZone`, …).
    case invalid(Components.Schemas.Problem)
    /// 404: this account has no such device token.
    case notFound(Components.Schemas.Problem)
    /// 403: the account may not do this (for example while suspended).
    case forbidden(Components.Schemas.Problem)

    public var problem: Components.Schemas.Problem {
        switch self {
        case .invalid(let p), .notFound(let p), .forbidden(let p): p
        }
    }
}

/// The error for a response other than the one hoped for.
func notificationFailure(_ operation: String, _ status: Int, _ problem: Components.Schemas.Problem?) -> any Error {
    let problem = problem ?? .init(_type: "about:blank", title: "HTTP \(status)", status: status)
    switch status {
    case 401: return AtelierError.signedOut
    case 403: return NotificationSettingsError.forbidden(problem)
    case 404: return NotificationSettingsError.notFound(problem)
    case 422: return NotificationSettingsError.invalid(problem)
    case 429: return AtelierError.rateLimited(retryAfter: nil)
    default: return AtelierError.unexpectedResponse("\(operation): HTTP \(status) \(problem.detail ?? "")")
    }
}
