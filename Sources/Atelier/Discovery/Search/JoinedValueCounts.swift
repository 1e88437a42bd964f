import Foundation

/// How often each value occurs in a comma-joined list, as a search's facets hand them over: one
/// value per match (tens of thousands for a common word) drawn from a few hundred distinct ones.
/// The list is read in place and tallied by its bytes; only the distinct values become keys. Parsing
/// each of the 28 000 ids of "cotton" into a UUID before counting it cost more than the statement
/// that joined them (issue 19).
enum JoinedValueCounts {
    static func counts<Key: Hashable>(
        _ joined: String?, key: (UnsafeBufferPointer<UInt8>) throws -> Key
    ) rethrows -> [Key: Int] {
        guard var joined else { return [:] }
        return try joined.withUTF8 { bytes in
            var tally = ByteRunTally(in: bytes)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                if end > start { tally.add(start, end - start) }
                start = end + 1
            }
            var counts: [Key: Int] = [:]
            for run in tally.runs {
                counts[try key(UnsafeBufferPointer(rebasing: bytes[run.start..<run.start + run.length])), default: 0] += run.count
            }
            return counts
        }
    }

    /// Counts of a list of ids; a value that is not an id is corrupt data.
    static func idCounts(_ joined: String?) throws -> [UUID: Int] {
        try counts(joined) { bytes in
            guard let id = UUID(utf8: bytes) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: \(String(decoding: bytes, as: UTF8.self)) is not an id"))
            }
            return id
        }
    }

    /// Counts of a list of non-negative numbers; a value that is not one is corrupt data.
    static func numberCounts(_ joined: String?) throws -> [Int: Int] {
        try counts(joined) { bytes in
            guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "search facets: \(String(decoding: bytes, as: UTF8.self)) is not a number"))
            }
            return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
    }

    static func stringCounts(_ joined: String?) -> [String: Int] {
        counts(joined) { String(decoding: $0, as: UTF8.self) }
    }

    /// The distinct values of one list (as offsets into it) with their counts, found through an
    /// open-addressing table with a multiplicative hash of the value's words: the standard library's
    /// seeded hashing cost more than the rest of the counting.
    private struct ByteRunTally {
        struct Run {
            var start: Int
            var length: Int
            var count: Int
        }

        private let bytes: UnsafeBufferPointer<UInt8>
        private(set) var runs: [Run] = []
        /// Index + 1 into `runs`; 0 is an empty slot. Never more than half full.
        private var slots = [Int32](repeating: 0, count: 1024)

        init(in bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func add(_ start: Int, _ length: Int) {
            let mask = slots.count - 1
            var slot = hash(start, length) & mask
            while slots[slot] != 0 {
                let index = Int(slots[slot]) - 1
                if runs[index].length == length, memcmp(bytes.baseAddress! + runs[index].start, bytes.baseAddress! + start, length) == 0 {
                    runs[index].count += 1
                    return
                }
                slot = (slot + 1) & mask
            }
            runs.append(Run(start: start, length: length, count: 1))
            slots[slot] = Int32(runs.count)
            if runs.count * 2 > slots.count { grow() }
        }

        private mutating func grow() {
            slots = [Int32](repeating: 0, count: slots.count * 2)
            let mask = slots.count - 1
            for (index, run) in runs.enumerated() {
                var slot = hash(run.start, run.length) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(index + 1)
            }
        }

        private func hash(_ start: Int, _ length: Int) -> Int {
            let base = UnsafeRawPointer(bytes.baseAddress! + start)
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(length)
            var offset = 0
            while offset + 8 <= length {
                h = (h ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 29
                offset += 8
            }
            while offset < length {
                h = (h ^ UInt64(base.load(fromByteOffset: offset, as: UInt8.self))) &* 0xC4CE_B9FE_1A85_EC53
                offset += 1
            }
            h ^= h >> 32
            return Int(truncatingIfNeeded: h)
        }
    }
}
