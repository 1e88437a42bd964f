import Fluent
import Foundation

/// A field of a partial update: left out, cleared with `null`, or set.
enum Patch<Value: Sendable>: Sendable {
    case absent
    case null
    case value(Value)
}

extension KeyedDecodingContainer {
    func decodePatch<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Patch<Value> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(Value.self, forKey: key))
    }
}

struct ProfilePatch: Decodable, Sendable {
    struct Location: Decodable, Sendable {
        var lat: Double
        var lng: Double
    }

    var displayName: Patch<String> = .absent
    var username: Patch<String> = .absent
    var about: Patch<String> = .absent
    var birthDate: Patch<String> = .absent
    var genderPreference: Patch<String> = .absent
    var homeLocation: Patch<Location> = .absent
    var homeCity: Patch<String> = .absent
    var radiusKm: Patch<Int> = .absent
    var locale: Patch<String> = .absent
    var timeZone: Patch<String> = .absent

    enum CodingKeys: String, CodingKey {
        case displayName, username, about, birthDate, genderPreference, homeLocation, homeCity, radiusKm, locale, timeZone
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodePatch(String.self, forKey: .displayName)
        username = try container.decodePatch(String.self, forKey: .username)
        about = try container.decodePatch(String.self, forKey: .about)
        birthDate = try container.decodePatch(String.self, forKey: .birthDate)
        genderPreference = try container.decodePatch(String.self, forKey: .genderPreference)
        homeLocation = try container.decodePatch(Location.self, forKey: .homeLocation)
        homeCity = try container.decodePatch(String.self, forKey: .homeCity)
        radiusKm = try container.decodePatch(Int.self, forKey: .radiusKm)
        locale = try container.decodePatch(String.self, forKey: .locale)
        timeZone = try container.decodePatch(String.self, forKey: .timeZone)
    }
}

/// Profile and settings changes. Validates everything first; writes nothing when any field is wrong.
struct ProfileService {
    let db: any Database
    let core: CoreServices

    func update(_ user: User, with patch: ProfilePatch) async throws -> User {
        var errors = FieldErrors()
        let required = "cannot be null"
        let today = core.clock.now()

        func set<T>(_ field: Patch<T>, name: String, optional: Bool, apply: (T?) -> Void) {
            switch field {
            case .absent: break
            case .null: optional ? apply(nil) : errors.add(name, required)
            case .value(let value): apply(value)
            }
        }

        var changes: [(User) -> Void] = []
        set(patch.displayName, name: "displayName", optional: false) { value in
            if let name = AccountRules.displayName(value ?? "", into: &errors) { changes.append { $0.displayName = name } }
        }
        var newUsername: String?
        set(patch.username, name: "username", optional: false) { value in
            newUsername = AccountRules.username(value ?? "", into: &errors)
        }
        set(patch.about, name: "about", optional: true) { value in
            let about = AccountRules.about(value, into: &errors)
            changes.append { $0.about = about }
        }
        set(patch.birthDate, name: "birthDate", optional: true) { value in
            let date = AccountRules.birthDate(value, today: today, into: &errors)
            changes.append { $0.birthDate = date }
        }
        set(patch.genderPreference, name: "genderPreference", optional: false) { value in
            if let gender = AccountRules.genderPreference(value ?? "", into: &errors) { changes.append { $0.genderPreference = gender } }
        }
        set(patch.homeLocation, name: "homeLocation", optional: true) { value in
            if let value {
                if let (lat, lng) = AccountRules.location(lat: value.lat, lng: value.lng, into: &errors) {
                    changes.append { $0.homeLat = lat; $0.homeLng = lng }
                }
            } else {
                changes.append { $0.homeLat = nil; $0.homeLng = nil }
            }
        }
        set(patch.homeCity, name: "homeCity", optional: true) { value in
            let city = AccountRules.homeCity(value, into: &errors)
            changes.append { $0.homeCity = city }
        }
        set(patch.radiusKm, name: "radiusKm", optional: false) { value in
            if let radius = AccountRules.radiusKm(value ?? 0, into: &errors) { changes.append { $0.radiusKm = radius } }
        }
        set(patch.locale, name: "locale", optional: false) { value in
            if let locale = AccountRules.locale(value ?? "", into: &errors) { changes.append { $0.locale = locale } }
        }
        set(patch.timeZone, name: "timeZone", optional: false) { value in
            if let zone = AccountRules.timeZone(value ?? "", into: &errors) { changes.append { $0.timeZone = zone } }
        }
        try errors.throwIfAny()

        if let newUsername, newUsername != user.username {
            if try await User.query(on: db).filter(\.$username == newUsername).count() > 0 {
                throw Problem.conflict("The username \(newUsername) is taken.", field: "username")
            }
            changes.append { $0.username = newUsername }
        }
        for change in changes { change(user) }
        user.updatedAt = today
        do {
            try await user.save(on: db)
        } catch let error as any DatabaseError where error.isConstraintFailure {
            throw Problem.conflict("The username is taken.", field: "username")
        }
        return user
    }
}
