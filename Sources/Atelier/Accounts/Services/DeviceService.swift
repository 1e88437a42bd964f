import Crypto
import Fluent
import Foundation

/// Push tokens. Registering a token another account holds moves it here: a phone has one user.
struct DeviceService {
    let db: any Database
    let core: CoreServices

    func register(
        token: String, platform: String, appVersion: String?, locale: String?, apnsEnvironment: String? = nil, bundleID: String? = nil,
        session: UUID? = nil, for user: User
    ) async throws -> Device {
        var errors = FieldErrors()
        switch platform {
        case "apns":
            // An APNs device token is 32 bytes or more, sent as hex.
            if !(64...200).contains(token.count) || token.count % 2 != 0 || !token.allSatisfy(\.isHexDigit) {
                errors.add("token", "must be the APNs device token as hex (64 or more hex digits)")
            }
            if let apnsEnvironment, !["production", "sandbox"].contains(apnsEnvironment) { errors.add("apnsEnvironment", "must be production or sandbox") }
            if let bundleID, bundleID.isEmpty || bundleID.count > 200 || bundleID.contains(where: { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) {
                errors.add("bundleId", "must be an app's bundle id")
            }
        case "fcm":
            if token.count < 20 || token.count > 4096 || token.contains(where: { !($0.isLetter || $0.isNumber || ":_-".contains($0)) }) {
                errors.add("token", "must be the FCM registration token as the platform gave it")
            }
        default: errors.add("platform", "must be apns or fcm")
        }
        if platform != "apns", apnsEnvironment != nil || bundleID != nil { errors.add("platform", "apnsEnvironment and bundleId are for apns devices") }
        if let appVersion, appVersion.count > 50 { errors.add("appVersion", "must be at most 50 characters") }
        if let locale { _ = AccountRules.locale(locale, into: &errors) }
        try errors.throwIfAny()

        let now = core.clock.now()
        let device = try await device(token: token, now: now)
        device.$user.id = try user.requireID()
        device.platform = platform
        device.appVersion = appVersion
        device.locale = locale
        device.apnsEnvironment = platform == "apns" ? (apnsEnvironment ?? "production") : nil
        device.bundleID = bundleID
        device.sessionFamilyID = session
        device.updatedAt = now
        try await device.save(on: db)
        return device
    }

    /// A browser's Web Push subscription (its endpoint is the token). The endpoint must be https
    /// (RFC 8030); the keys must be a P-256 public key and a 16-byte auth secret.
    func registerWebPush(endpoint: String, p256dh: String, auth: String, locale: String?, session: UUID?, for user: User) async throws -> Device {
        var errors = FieldErrors()
        let url = URL(string: endpoint)
        if endpoint.count > 2048 || url?.scheme?.lowercased() != "https" || url?.host?.isEmpty != false {
            errors.add("endpoint", "must be the push service's https URL")
        }
        let key = Base64URL.bytes(p256dh, maxLength: 200)
        if key?.count != 65 || key.flatMap({ try? P256.KeyAgreement.PublicKey(x963Representation: $0) }) == nil {
            errors.add("keys.p256dh", "must be the subscription's P-256 public key (base64url)")
        }
        if Base64URL.bytes(auth, maxLength: 100)?.count != 16 { errors.add("keys.auth", "must be the subscription's 16-byte auth secret (base64url)") }
        if let locale { _ = AccountRules.locale(locale, into: &errors) }
        try errors.throwIfAny()

        let now = core.clock.now()
        let device = try await device(token: endpoint, now: now)
        device.$user.id = try user.requireID()
        device.platform = "webpush"
        device.locale = locale
        device.webPushP256dh = p256dh
        device.webPushAuth = auth
        device.sessionFamilyID = session
        device.updatedAt = now
        try await device.save(on: db)
        return device
    }

    /// The device with `token` (whoever holds it: registering moves it), or a new one.
    private func device(token: String, now: Date) async throws -> Device {
        if let device = try await Device.query(on: db).filter(\.$token == token).first() { return device }
        let device = Device()
        device.id = .v7(at: now)
        device.token = token
        device.createdAt = now
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
