import AtelierServerAPI
import Foundation

extension Components.Schemas.Me {
    init(_ user: User) {
        self.init(
            id: user.id!.idString,
            email: user.email,
            emailVerified: user.email != nil && user.emailVerifiedAt != nil,
            pendingEmail: user.pendingEmail,
            displayName: user.displayName,
            username: user.username,
            about: user.about,
            birthDate: user.birthDate,
            genderPreference: .init(rawValue: user.genderPreference) ?? .all,
            homeLocation: user.homeLat.flatMap { lat in user.homeLng.map { .init(lat: lat, lng: $0) } },
            homeCity: user.homeCity,
            radiusKm: .init(rawValue: user.radiusKm) ?? ._10,
            locale: user.locale,
            timeZone: user.timeZone,
            roles: user.roles.compactMap { .init(rawValue: $0) },
            hasPassword: user.passwordHash != nil,
            createdAt: user.createdAt)
    }
}

extension Components.Schemas.AuthSession {
    init(_ user: User, _ session: SessionService.Issued) {
        self.init(
            accessToken: session.accessToken, refreshToken: session.refreshToken, tokenType: .bearer,
            accessTokenExpiresAt: session.accessTokenExpiresAt, refreshTokenExpiresAt: session.refreshTokenExpiresAt,
            user: .init(user))
    }
}

extension Components.Schemas.Device {
    init(_ device: Device) {
        self.init(
            token: device.token, platform: .init(rawValue: device.platform) ?? .apns, appVersion: device.appVersion,
            locale: device.locale, apnsEnvironment: device.apnsEnvironment.flatMap { .init(rawValue: $0) }, bundleId: device.bundleID,
            createdAt: device.createdAt, updatedAt: device.updatedAt)
    }
}
