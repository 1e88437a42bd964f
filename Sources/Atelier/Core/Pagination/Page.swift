import Fluent
import Foundation
import Vapor

/// Where the previous page ended: the id of its last item. Ids are time-ordered (UUIDv7, made
/// from the app clock when the row is created), so "newest first" is "highest id first", and an id
/// compares exactly, where a stored timestamp may not round-trip to the same bits. Opaque to
/// clients (base64url) and stable under concurrent inserts: it names a position, not an offset.
public struct PageCursor: Sendable, Equatable {
    public var id: UUID

    public init(id: UUID) {
        self.id = id
    }

    public var encoded: String { Base64URL.encode(id.idString) }

    public static func decode(_ raw: String) throws -> PageCursor {
        guard let text = Base64URL.decode(raw, maxLength: 64), let id = UUID(uuidString: text)
        else {
            throw Problem.invalidCursor()
        }
        return PageCursor(id: id)
    }
}

public struct PageRequest: Sendable {
    public static let defaultLimit = 20
    public static let maxLimit = 100

    public var limit: Int
    public var cursor: PageCursor?

    public init(limit: Int?, cursor: String?) throws {
        let limit = limit ?? Self.defaultLimit
        guard (1...Self.maxLimit).contains(limit) else {
            throw Problem(
                .badRequest, detail: "limit must be between 1 and \(Self.maxLimit).",
                errors: [.init(field: "limit", message: "must be between 1 and \(Self.maxLimit)")])
        }
        self.limit = limit
        self.cursor = try cursor.map(PageCursor.decode)
    }
}

public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var nextCursor: String?

    /// `fetched` holds up to `limit + 1` rows; the extra one only says whether another page exists.
    public init(fetched: [Item], limit: Int, cursorOf: (Item) -> PageCursor) {
        if fetched.count > limit {
            items = Array(fetched.prefix(limit))
            nextCursor = items.last.map { cursorOf($0).encoded }
        } else {
            items = fetched
            nextCursor = nil
        }
    }

    public func map<Other>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        var page = Page<Other>(fetched: [], limit: 0, cursorOf: { _ in PageCursor(id: UUID()) })
        page.items = try items.map(transform)
        page.nextCursor = nextCursor
        return page
    }
}

extension QueryBuilder {
    /// Newest first (highest time-ordered id first), starting after `request.cursor`.
    /// Fetches one extra row for `Page(fetched:limit:cursorOf:)`.
    @discardableResult
    public func newestFirst(_ request: PageRequest) -> Self {
        if let cursor = request.cursor {
            filter("id", .lessThan, cursor.id)
        }
        return sort("id", .descending).limit(request.limit + 1)
    }
}
