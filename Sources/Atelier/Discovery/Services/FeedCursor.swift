import Foundation

/// Where a feed page ended, inside one snapshot: the `asOf` time (products created later are left
/// out until the user refreshes) and the last item's sort key and id. The order (sort key, then id,
/// both descending) is total and fixed at creation, so pages never repeat or skip a product while
/// stores keep uploading. Opaque to clients (base64url).
struct FeedCursor: Sendable, Equatable {
    var asOfMilliseconds: Int64
    var sortKey: Double
    var id: UUID

    var asOf: Date { Date(timeIntervalSince1970: Double(asOfMilliseconds) / 1000) }

    var encoded: String { Base64URL.encode("\(asOfMilliseconds)|\(sortKey)|\(id.idString)") }

    static func decode(_ raw: String) throws -> FeedCursor {
        let parts = Base64URL.decode(raw, maxLength: 200)?.split(separator: "|")
        guard let parts, parts.count == 3, let asOf = Int64(parts[0]), let key = Double(parts[1]), key.isFinite,
            let id = UUID(uuidString: String(parts[2]))
        else {
            throw Problem.invalidCursor()
        }
        return FeedCursor(asOfMilliseconds: asOf, sortKey: key, id: id)
    }

    /// A snapshot time as the API shows it (date-times go out in whole seconds), in milliseconds;
    /// the feed takes in everything created up to the end of that second.
    static func milliseconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) * 1000 }
}
