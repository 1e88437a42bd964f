import Foundation

/// How often each value occurs in a comma-joined list, as a search's facets on PostgreSQL hand them over: one
/// value per match (tens of thousands for a common word) drawn from a few hundred distinct ones.
/// The list is tallied by its bytes (`ByteStringCounts`); only the distinct values become keys. Parsing
/// each of the 28 000 ids of "cotton" into a UUID before counting it cost more than the statement
/// that joined them (issue 19).
enum JoinedValueCounts {
    static func counts<Key: Hashable>(
        _ joined: String?, key: (UnsafeBufferPointer<UInt8>) throws -> Key
    ) rethrows -> [Key: Int] {
        guard var joined else { return [:] }
        var tally = ByteStringCounts()
        joined.withUTF8 { tally.add(commaJoined: UnsafeRawBufferPointer($0)) }
        var counts: [Key: Int] = [:]
        try tally.forEach { bytes, n in counts[try key(bytes.assumingMemoryBound(to: UInt8.self)), default: 0] += n }
        return counts
    }

    /// Counts of a list of ids; a value that is not an id is corrupt data.
    static func idCounts(_ joined: String?) throws -> [UUID: Int] {
        try counts(joined, key: id)
    }

    /// A facet's id from its text; a text that is not one is corrupt data.
    static func id(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UUID {
        guard let id = UUID(utf8: bytes) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: \(String(decoding: bytes, as: UTF8.self)) is not an id"))
        }
        return id
    }

    static func stringCounts(_ joined: String?) -> [String: Int] {
        counts(joined) { String(decoding: $0, as: UTF8.self) }
    }
}
