import Foundation

/// Age-restricted goods (commerce.md): a product needs its own `min_age`, and a product in one of
/// the store's restricted categories needs the store's legal age. The buyer's birth date on the
/// account must show that age on the store's local day; no birth date is a refusal too.
struct AgeRule {
    let settings: CommerceSettings?

    /// The age `product` (in category `categoryPath`) needs, or nil when it is not restricted.
    func requiredAge(minAge: Int?, categoryPath: String) -> Int? {
        var required = minAge
        if let settings, let legalAge = settings.legalAge,
            !Set(Self.segments(of: categoryPath)).isDisjoint(with: settings.restrictedCategoryIDs.map(Category.segment))
        {
            required = max(required ?? 0, legalAge)
        }
        return required
    }

    /// Throws a 403 problem saying why when `birthDate` (YYYY-MM-DD) is missing or too young on `today`.
    static func check(birthDate: String?, required: Int, today: Date, timeZone: TimeZone, title: String) throws {
        guard let birthDate, let age = age(birthDate: birthDate, on: today, in: timeZone) else {
            throw Problem(
                .forbidden, type: "https://atelier.dev/problems/age-required", title: "Age check needed",
                detail: "\(title) is sold only to people aged \(required) or over. Add your birth date to your account first.")
        }
        guard age >= required else {
            throw Problem(
                .forbidden, type: "https://atelier.dev/problems/age-required", title: "Age check failed",
                detail: "\(title) is sold only to people aged \(required) or over.")
        }
    }

    static func age(birthDate: String, on today: Date, in timeZone: TimeZone) -> Int? {
        let parts = birthDate.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let now = calendar.dateComponents([.year, .month, .day], from: today)
        guard let year = now.year, let month = now.month, let day = now.day else { return nil }
        var age = year - parts[0]
        if (month, day) < (parts[1], parts[2]) { age -= 1 }
        return age
    }

    /// The category ids (as path segments) from the root down to the category with `path`.
    static func segments(of path: String) -> [String] {
        stride(from: 0, to: path.count, by: 32).map { start in
            let from = path.index(path.startIndex, offsetBy: start)
            return String(path[from..<(path.index(from, offsetBy: 32, limitedBy: path.endIndex) ?? path.endIndex)])
        }
    }
}
