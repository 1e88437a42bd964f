import Foundation

/// Where a search page ended: the sort it belongs to and the last item's sort value and id. Results
/// are ordered by (sort value ascending, id descending), a total order, so paging neither repeats
/// nor skips while the index holds still. Opaque to clients (base64url).
struct SearchCursor: Sendable, Equatable {
    var sort: ProductSearchQuery.Sort
    var value: Double
    var id: UUID

    var encoded: String { Base64URL.encode("\(sort.rawValue)|\(value.bitPattern)|\(id.idString)") }

    static func decode(_ raw: String, for sort: ProductSearchQuery.Sort) throws -> SearchCursor {
        let parts = Base64URL.decode(raw, maxLength: 200)?.split(separator: "|")
        guard let parts, parts.count == 3, let decodedSort = ProductSearchQuery.Sort(rawValue: String(parts[0])), decodedSort == sort,
            let bits = UInt64(parts[1]), Double(bitPattern: bits).isFinite, let id = UUID(uuidString: String(parts[2]))
        else { throw Problem.invalidCursor() }
        return SearchCursor(sort: sort, value: Double(bitPattern: bits), id: id)
    }
}
