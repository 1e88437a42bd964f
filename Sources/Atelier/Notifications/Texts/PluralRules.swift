/// The languages notifications are written in, and the plural forms each needs (CLDR's rules for
/// whole numbers).
enum NotificationLanguage: String, Sendable, CaseIterable {
    case en, ro

    /// The language of a locale such as `ro-RO` or `en_GB`; English for anything else.
    init(locale: String?) {
        let code = locale?.prefix(2).lowercased() ?? ""
        self = NotificationLanguage(rawValue: code) ?? .en
    }

    enum PluralForm: Sendable { case one, few, other }

    /// English: one (1) and other. Romanian: one (1); few (0, and 2–19 after the hundreds:
    /// "3 fotografii", "101 fotografii"); other (20 and up otherwise, which take "de":
    /// "20 de fotografii").
    func pluralForm(_ n: Int) -> PluralForm {
        switch self {
        case .en: return n == 1 ? .one : .other
        case .ro:
            if n == 1 { return .one }
            return n == 0 || (1...19).contains(n % 100) ? .few : .other
        }
    }

    /// `n` with the noun in its form: `count(3, one: "o fotografie", few: "fotografii", other: "de fotografii")`
    /// gives "3 fotografii". The `one` text is used whole (it may spell the number out).
    func count(_ n: Int, one: String, few: String? = nil, other: String) -> String {
        switch pluralForm(n) {
        case .one: return one
        case .few: return "\(n) \(few ?? other)"
        case .other: return "\(n) \(other)"
        }
    }
}
