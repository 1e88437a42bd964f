import Foundation

/// How often each distinct byte string was added, for tens of thousands of values drawn from a few
/// hundred distinct ones (a search's facet values, issue 19). An open-addressing table over a
/// multiplicative hash of the bytes, the distinct strings copied into one buffer: a `String` and the
/// standard library's seeded hashing per value cost more than the rest of the counting.
struct ByteStringCounts {
    private struct Entry {
        var start: Int
        var length: Int
        var count: Int
    }

    private var stored: [UInt8] = []
    private var entries: [Entry] = []
    /// Index + 1 into `entries`; 0 is an empty slot. Never more than half full.
    private var slots = [Int32](repeating: 0, count: 64)

    var isEmpty: Bool { entries.isEmpty }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        let mask = slots.count - 1
        var slot = Self.hash(bytes) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot]) - 1
            if entries[index].length == bytes.count, equals(entries[index], bytes) {
                entries[index].count += 1
                return
            }
            slot = (slot + 1) & mask
        }
        entries.append(Entry(start: stored.count, length: bytes.count, count: 1))
        stored.append(contentsOf: bytes)
        slots[slot] = Int32(entries.count)
        if entries.count * 2 > slots.count { grow() }
    }

    /// Each non-empty value of a comma-joined list.
    mutating func add(commaJoined list: UnsafeRawBufferPointer) {
        var start = 0
        while start < list.count {
            let end = list[start...].firstIndex(of: UInt8(ascii: ",")) ?? list.count
            if end > start { add(UnsafeRawBufferPointer(rebasing: list[start..<end])) }
            start = end + 1
        }
    }

    /// Each distinct string with its count, in the order first added.
    func forEach(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        try stored.withUnsafeBytes { all in
            for entry in entries { try body(UnsafeRawBufferPointer(rebasing: all[entry.start..<entry.start + entry.length]), entry.count) }
        }
    }

    private func equals(_ entry: Entry, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard entry.length > 0 else { return true }
        return stored.withUnsafeBytes { memcmp($0.baseAddress! + entry.start, bytes.baseAddress!, entry.length) == 0 }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        stored.withUnsafeBytes { all in
            for (index, entry) in entries.enumerated() {
                var slot = Self.hash(UnsafeRawBufferPointer(rebasing: all[entry.start..<entry.start + entry.length])) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(index + 1)
            }
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            offset += 8
        }
        while offset < bytes.count {
            h = (h ^ UInt64(bytes[offset])) &* 0xC4CE_B9FE_1A85_EC53
            offset += 1
        }
        h ^= h >> 32
        return Int(truncatingIfNeeded: h)
    }
}
