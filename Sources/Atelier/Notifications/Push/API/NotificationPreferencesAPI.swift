import AtelierServerAPI
import Foundation
import Vapor

/// The caller's notification preferences and quiet hours.
extension APIHandler {
    func getNotificationPreferences(_ input: Operations.GetNotificationPreferences.Input) async throws -> Operations.GetNotificationPreferences.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        return .ok(.init(body: .json(try await preferencesBody(user.requireID(), req))))
    }

    func putNotificationPreferences(_ input: Operations.PutNotificationPreferences.Input) async throws -> Operations.PutNotificationPreferences.Output {
        let req = try request()
        let user = try await req.requireCaller().user
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        try await NotificationPreferencesService(db: req.db, core: services.core).update(
            user.requireID(),
            changes: (body.kinds ?? []).map { .init(kind: $0.kind, push: $0.push, email: $0.email) },
            quiet: body.quietHours.map { .init(start: $0.start, end: $0.end, timeZone: $0.timeZone) },
            clearQuiet: body.clearQuietHours ?? false)
        return .ok(.init(body: .json(try await preferencesBody(user.requireID(), req))))
    }

    private func preferencesBody(_ userID: UUID, _ req: Request) async throws -> Components.Schemas.NotificationPreferences {
        let (kinds, quiet) = try await NotificationPreferencesService(db: req.db, core: services.core).settings(of: userID)
        return .init(
            kinds: kinds.map { .init(kind: $0.kind.rawValue, push: $0.push, email: $0.email) },
            quietHours: quiet.map { .init(start: QuietHours.text($0.startMinute), end: QuietHours.text($0.endMinute), timeZone: $0.timeZone) })
    }
}

/// This browser's Web Push subscription.
extension APIHandler {
    func registerWebPushSubscription(_ input: Operations.RegisterWebPushSubscription.Input) async throws -> Operations.RegisterWebPushSubscription.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard case .json(let body) = input.body else { throw Problem(.unsupportedMediaType, detail: "Send JSON.") }
        let device = try await DeviceService(db: req.db, core: services.core).registerWebPush(
            endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, locale: body.locale, session: caller.familyID, for: caller.user)
        return .ok(.init(body: .json(.init(device))))
    }

    func unregisterWebPushSubscription(_ input: Operations.UnregisterWebPushSubscription.Input) async throws -> Operations.UnregisterWebPushSubscription.Output {
        let req = try request()
        let caller = try await req.requireCaller()
        guard try await DeviceService(db: req.db, core: services.core).unregister(token: input.query.endpoint, for: caller.user.requireID()) else {
            throw Problem.notFound("subscription")
        }
        return .noContent(.init())
    }
}
