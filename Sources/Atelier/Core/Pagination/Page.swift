import Fluent
import Foundation
import Vapor

/// Where the previous page ended: the sort key and id of its last item. Opaque to clients
/// (base64url JSON) and stable under concurrent inserts, since it names a position, not an offset.
public struct PageCursor: Codable, Sendable, Equatable {
    public var time: Date
    public var id: UUID

    public init(time: Date, id: UUID) {
        self.time = time
        self.id = id
    }

    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = (try? encoder.encode(self)) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func decode(_ raw: String) throws -> PageCursor {
        var base64 = raw.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let data = Data(base64Encoded: base64), let cursor = try? decoder.decode(PageCursor.self, from: data) else {
            throw Problem(.badRequest, detail: "The cursor is not one this server gave out.", errors: [.init(field: "cursor", message: "is invalid")])
        }
        return cursor
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
        var page = Page<Other>(fetched: [], limit: 0, cursorOf: { _ in PageCursor(time: Date(), id: UUID()) })
        page.items = try items.map(transform)
        page.nextCursor = nextCursor
        return page
    }
}

extension QueryBuilder {
    /// Newest first by `timeField`, ties broken by id, starting after `request.cursor`.
    /// Fetches one extra row for `Page(fetched:limit:cursorOf:)`.
    public func newestFirst(_ request: PageRequest, timeField: FieldKey = "created_at") -> Self {
        if let cursor = request.cursor {
            group(.or) { or in
                or.filter(timeField, .lessThan, cursor.time)
                or.group(.and) { and in
                    and.filter(timeField, .equal, cursor.time)
                    and.filter("id", .lessThan, cursor.id)
                }
            }
        }
        return sort(timeField, .descending).sort("id", .descending).limit(request.limit + 1)
    }
}
