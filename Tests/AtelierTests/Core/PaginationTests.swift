import Foundation
import Testing

@testable import Atelier

@Suite("Cursor pagination")
struct PaginationTests {
    @Test("cursors round-trip and reject garbage")
    func cursorRoundTrip() throws {
        let cursor = PageCursor(id: UUID.v7())
        #expect(try PageCursor.decode(cursor.encoded) == cursor)
        #expect(throws: Problem.self) { try PageCursor.decode("not-a-cursor") }
        #expect(throws: Problem.self) { try PageRequest(limit: 0, cursor: nil) }
        #expect(throws: Problem.self) { try PageRequest(limit: 101, cursor: nil) }
        #expect(try PageRequest(limit: nil, cursor: nil).limit == 20)
    }

    @Test("v7 ids sort by creation time")
    func uuidV7Order() {
        let earlier = UUID.v7(at: Date(timeIntervalSince1970: 1_000))
        let later = UUID.v7(at: Date(timeIntervalSince1970: 2_000))
        #expect(earlier.uuidString < later.uuidString)
        #expect(later.uuidString.dropFirst(14).first == "7")
    }
}
