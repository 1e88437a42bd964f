import Foundation

/// Postcodes as a store lists them and a person types them: "411 19", "41119" and " 411-19 " are
/// one postcode. Letters are kept (upper-cased), so British and Dutch codes work as well.
enum Postcode {
    /// nil when there is nothing of a postcode in `raw` (2 to 10 letters and digits).
    static func normalized(_ raw: String) -> String? {
        let kept = raw.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        let dropped = raw.filter { !($0.isASCII && ($0.isLetter || $0.isNumber)) && !" -".contains($0) }
        guard dropped.isEmpty, (2...10).contains(kept.count) else { return nil }
        return kept
    }
}
