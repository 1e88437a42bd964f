import Fluent
import Foundation

/// Push tokens. Registering a token another account holds moves it here: a phone has one user.
struct DeviceService {
    let db: any Database
    let services: AtelierServices

    func register(token: String, platform: String, appVersion: String?, locale: String?, for user: User) async throws -> Device {
        var errors = FieldErrors()
        if token.isEmpty || token.count > 4096 || token.contains(where: \.isWhitespace) {
            errors.add("token", "must be the push token as the platform gave it")
        }
        if !["apns", "fcm"].contains(platform) { errors.add("platform", "must be apns or fcm") }
        if let appVersion, appVersion.count > 50 { errors.add("appVersion", "must be at most 50 characters") }
        if let locale { _ = AccountRules.locale(locale, into: &errors) }
        try errors.throwIfAny()

        let now = services.clock.now()
        let device = try await Device.query(on: db).filter(\.$token == token).first() ?? {
            let device = Device()
            device.id = .v7(at: now)
            device.token = token
            device.createdAt = now
            return device
        }()
        device.$user.id = try user.requireID()
        device.platform = platform
        device.appVersion = appVersion
        device.locale = locale
        device.updatedAt = now
        try await device.save(on: db)
        return device
    }

    /// Returns false when this account has no such token.
    func unregister(token: String, for userID: UUID) async throws -> Bool {
        guard let device = try await Device.query(on: db)
            .filter(\.$token == token).filter(\.$user.$id == userID).first()
        else { return false }
        try await device.delete(on: db)
        return true
    }

    func list(for userID: UUID, page: PageRequest) async throws -> Page<Device> {
        let rows = try await Device.query(on: db).filter(\.$user.$id == userID).newestFirst(page).all()
        return Page(fetched: rows, limit: page.limit) { PageCursor(id: $0.id!) }
    }
}
