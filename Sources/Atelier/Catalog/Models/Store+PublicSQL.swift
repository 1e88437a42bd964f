import SQLKit

extension Store {
    /// `isPublic` in SQL, for the statements that list what everyone may see: the store (its
    /// table as `alias`, or unqualified without one) is active and not members-only. One place,
    /// so the lists, search, feeds and brand pages cannot disagree about which stores are public.
    static func isPublicSQL(_ alias: String? = "s") -> SQLQueryString {
        let column = { (name: String) in alias.map { "\($0).\(name)" } ?? name }
        return "\(unsafeRaw: column("status")) = \(bind: Status.active.rawValue) AND \(unsafeRaw: column("members_only")) = \(bind: false)"
    }
}
