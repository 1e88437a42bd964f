import Fluent
import Vapor

/// Notifications on the web settings page: which kinds reach the person by push and email, quiet
/// hours, and this browser's Web Push subscription (made by `web-push.js`, kept by `/sw.js`).
enum NotificationSettingsWebRoutes {
    /// The session key naming this browser's subscription, so signing out forgets it.
    static let subscriptionSessionKey = "webPushSession"

    static func register(_ web: any RoutesBuilder) {
        let signedIn = web.grouped(RequireWebUser())
        signedIn.post("settings", "notifications", use: savePreferences)
        signedIn.post("settings", "web-push", use: subscribe)
        signedIn.post("settings", "web-push", "remove", use: unsubscribe)
    }

    /// What the settings template shows of notifications.
    static func pageValues(_ req: Request, _ user: User) async throws -> [String: FormValue] {
        let (kinds, quiet) = try await NotificationPreferencesService(db: req.db, core: req.core).settings(of: user.requireID())
        let rows = kinds.filter { NotificationKinds.shown($0.kind, to: user) }.map { setting -> [String: String] in
            ["kind": setting.kind.rawValue, "label": NotificationKinds.label(setting.kind),
             "push": setting.push ? "on" : "", "email": setting.email ? "on" : ""]
        }
        var values: [String: FormValue] = [
            "notificationKinds": .table(rows),
            "quietOn": .bool(quiet != nil),
            "quietStart": .string(quiet.map { QuietHours.text($0.startMinute) } ?? "22:00"),
            "quietEnd": .string(quiet.map { QuietHours.text($0.endMinute) } ?? "07:00"),
            "quietTimeZone": .string(quiet?.timeZone ?? user.timeZone),
        ]
        if let key = req.atelier.push.webPush?.vapid.publicKey { values["webPushKey"] = .string(key) }
        return values
    }

    static func savePreferences(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let form = try req.content.decode([String: String].self)
        // Unticked boxes are not sent: every kind shown is set from what was ticked.
        let changes = NotificationKinds.all.filter { NotificationKinds.shown($0, to: user) }.map { kind in
            NotificationPreferencesService.Change(kind: kind.rawValue, push: form["push-\(kind.rawValue)"] != nil, email: form["email-\(kind.rawValue)"] != nil)
        }
        let quietOn = form["quietHours"] != nil
        let quiet = quietOn ? NotificationPreferencesService.QuietInput(
            start: form["quietStart"] ?? "", end: form["quietEnd"] ?? "", timeZone: form["quietTimeZone"] ?? "") : nil
        do {
            try await NotificationPreferencesService(db: req.db, core: req.core)
                .update(user.requireID(), changes: changes, quiet: quiet, clearQuiet: !quietOn)
        } catch let problem as Problem where problem.status.code < 500 {
            let fields = ["quietHours.start": "quietStart", "quietHours.end": "quietEnd", "quietHours.timeZone": "quietTimeZone"]
            var errors: [String: String] = [:]
            for (field, message) in problem.messagesByField { errors[fields[field] ?? field] = message }
            // The person sees what they typed, with the reason next to it.
            let submitted: [String: FormValue] = [
                "quietOn": .bool(quietOn), "quietStart": .string(quiet?.start ?? ""), "quietEnd": .string(quiet?.end ?? ""),
                "quietTimeZone": .string(quiet?.timeZone ?? user.timeZone),
            ]
            return try await SettingsWebRoutes.renderSettings(req, status: problem.status, errors: errors, notificationValues: submitted)
        }
        return AccountsWebRoutes.redirect(req, to: "/settings#notifications", flash: ("success", "Notification settings saved."))
    }

    struct Subscription: Content {
        struct Keys: Content { var p256dh: String?; var auth: String? }
        var endpoint: String?
        var keys: Keys?
    }

    /// Stores this browser's subscription (the JSON of `PushSubscription.toJSON()`).
    static func subscribe(_ req: Request) async throws -> Response {
        let user = try req.requireWebUser()
        let body = try req.content.decode(Subscription.self)
        let session = req.session.data[subscriptionSessionKey].flatMap(UUID.init(uuidString:)) ?? UUID()
        req.session.data[subscriptionSessionKey] = session.uuidString
        let device = try await DeviceService(db: req.db, core: req.core).registerWebPush(
            endpoint: body.endpoint ?? "", p256dh: body.keys?.p256dh ?? "", auth: body.keys?.auth ?? "",
            locale: user.locale, session: session, for: user)
        let response = Response(status: .ok)
        try response.content.encode(["endpoint": device.token, "platform": device.platform])
        return response
    }

    static func unsubscribe(_ req: Request) async throws -> HTTPStatus {
        let user = try req.requireWebUser()
        let body = try req.content.decode(Subscription.self)
        _ = try await DeviceService(db: req.db, core: req.core).unregister(token: body.endpoint ?? "", for: user.requireID())
        return .noContent
    }

    /// Signing out of the web forgets the push subscription this browser made while signed in.
    static func forgetSubscription(of req: Request) async throws {
        guard let raw = req.session.data[subscriptionSessionKey], let session = UUID(uuidString: raw) else { return }
        try await Device.query(on: req.db).filter(\.$sessionFamilyID == session).delete()
    }
}
