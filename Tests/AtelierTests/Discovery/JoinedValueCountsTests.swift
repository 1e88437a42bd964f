import Foundation
import Testing

@testable import Atelier

@Suite("Discovery: counting a search's joined facet values")
struct JoinedValueCountsTests {
    @Test("each distinct value is counted as often as it occurs, past the table's first size, empty values skipped")
    func countsEveryValue() {
        // 3 000 distinct values (the tally starts with room for 512), repeated unevenly, some empty.
        var values: [String] = []
        for i in 0..<20_000 {
            let n = (i * 7919) % 3_000
            values.append(i % 7 == 0 ? "" : "value-\(n)-\(String(repeating: "x", count: n % 13))")
        }
        let expected = Dictionary(grouping: values.filter { !$0.isEmpty }, by: { $0 }).mapValues(\.count)
        let counted = JoinedValueCounts.stringCounts(values.joined(separator: ","))
        #expect(expected.count == 3_000)
        #expect(counted.count == expected.count)
        #expect(expected.filter { counted[$0.key] != $0.value }.count == 0, "values counted wrongly")
        #expect(JoinedValueCounts.stringCounts(nil).isEmpty)
        #expect(JoinedValueCounts.stringCounts("red,,blue,red,") == ["red": 2, "blue": 1])
    }

    @Test("ids in either case count as one id; a value that is not an id is an error")
    func idCounts() throws {
        let a = UUID(), b = UUID()
        let joined = [a.uuidString, b.idString, a.idString, a.uuidString].joined(separator: ",")
        #expect(try JoinedValueCounts.idCounts(joined) == [a: 3, b: 1])
        #expect(throws: DecodingError.self) { try JoinedValueCounts.idCounts("\(a.idString),nope") }
    }
}
