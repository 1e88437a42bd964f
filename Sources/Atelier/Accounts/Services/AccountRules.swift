import Foundation

/// The rules for account fields, shared by the API and the web forms. Each returns the
/// normalised value or records a message a person can act on.
enum AccountRules {
    static let minPasswordLength = 10
    static let maxPasswordLength = 200
    static let maxAboutLength = 140
    static let radiusChoices = [1, 5, 10, 50]
    static let genderChoices = ["women", "men", "all"]

    static func email(_ raw: String, field: String = "email", into errors: inout FieldErrors) -> String? {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "," })
        else {
            errors.add(field, "must be an email address like name@example.com")
            return nil
        }
        return email
    }

    static func password(_ password: String, field: String = "password", into errors: inout FieldErrors) {
        if password.count < minPasswordLength {
            errors.add(field, "must be at least \(minPasswordLength) characters")
        } else if password.count > maxPasswordLength {
            errors.add(field, "must be at most \(maxPasswordLength) characters")
        } else if CommonPasswords.contains(password) {
            errors.add(field, "is too common; choose something harder to guess")
        }
    }

    static func displayName(_ raw: String, into errors: inout FieldErrors) -> String? {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.count), !name.contains(where: \.isNewline) else {
            errors.add("displayName", "must be 1 to 60 characters on one line")
            return nil
        }
        return name
    }

    static func username(_ raw: String, into errors: inout FieldErrors) -> String? {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._")
        guard (3...30).contains(name.count), name.allSatisfy(allowed.contains),
            !name.hasPrefix("."), !name.hasSuffix(".")
        else {
            errors.add("username", "must be 3 to 30 letters a-z, digits, dots or underscores")
            return nil
        }
        return name
    }

    static func about(_ raw: String?, into errors: inout FieldErrors) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        if text.count > maxAboutLength {
            errors.add("about", "must be at most \(maxAboutLength) characters (it has \(text.count))")
        }
        return text
    }

    /// IANA zones people can choose. Foundation on Linux leaves "UTC" out of its list, yet it is
    /// our default, so it is added here.
    static let timeZoneIdentifiers: [String] = Array(Set(TimeZone.knownTimeZoneIdentifiers + ["UTC"])).sorted()
    private static let timeZoneSet = Set(timeZoneIdentifiers)

    /// A zone from the list, or a fixed-offset IANA zone ("Etc/GMT+12"), which the list leaves out.
    static func timeZone(_ raw: String, into errors: inout FieldErrors) -> String? {
        let fixedOffset = raw.range(of: #"^Etc/GMT[+-]([0-9]|1[0-4])$"#, options: .regularExpression) != nil
        guard timeZoneSet.contains(raw) || (fixedOffset && TimeZone(identifier: raw) != nil) else {
            errors.add("timeZone", "must be an IANA time zone such as Europe/Stockholm")
            return nil
        }
        return raw
    }

    static func locale(_ raw: String, into errors: inout FieldErrors) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        guard (2...35).contains(raw.count), raw.allSatisfy(allowed.contains), raw.first!.isLetter else {
            errors.add("locale", "must be a language tag such as en or ro-RO")
            return nil
        }
        return raw.replacingOccurrences(of: "_", with: "-")
    }

    static func birthDate(_ raw: String?, today: Date, into errors: inout FieldErrors) -> String? {
        guard let raw, !raw.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard raw.count == 10, let date = formatter.date(from: raw), formatter.string(from: date) == raw else {
            errors.add("birthDate", "must be a date written YYYY-MM-DD")
            return nil
        }
        guard date < today, raw >= "1900-01-01" else {
            errors.add("birthDate", "must be in the past")
            return nil
        }
        return raw
    }

    static func genderPreference(_ raw: String, into errors: inout FieldErrors) -> String? {
        guard genderChoices.contains(raw) else {
            errors.add("genderPreference", "must be women, men or all")
            return nil
        }
        return raw
    }

    static func radiusKm(_ raw: Int, into errors: inout FieldErrors) -> Int? {
        guard radiusChoices.contains(raw) else {
            errors.add("radiusKm", "must be 1, 5, 10 or 50")
            return nil
        }
        return raw
    }

    static func homeCity(_ raw: String?, into errors: inout FieldErrors) -> String? {
        guard let city = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !city.isEmpty else { return nil }
        if city.count > 100 { errors.add("homeCity", "must be at most 100 characters") }
        return city
    }

    static func location(lat: Double, lng: Double, field: String = "homeLocation", into errors: inout FieldErrors) -> (Double, Double)? {
        guard (-90...90).contains(lat), (-180...180).contains(lng), lat.isFinite, lng.isFinite else {
            errors.add(field, "must have lat between -90 and 90 and lng between -180 and 180")
            return nil
        }
        return (lat, lng)
    }
}
