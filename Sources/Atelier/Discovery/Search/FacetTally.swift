import Foundation
import VaporCSQLite

/// `facet_tally(brand, category, store, colors)`, a SQLite aggregate that counts a search's facets
/// over its matches in one pass (issue 19): how often each brand, category and store occurs (facet
/// numbers, or ids as text; NULL is no value) and each colour of the comma-joined `colors`. It
/// returns these counts, a few hundred entries, as a BLOB that `init(record:)` reads, or NULL without
/// rows. (As JSON, writing and reading them back took 4 % of a search's CPU.)
///
/// Before, the statement joined every match's values into four strings (`group_concat`, each number
/// written out as text), which were then split and counted in Swift: for the 27 868 matches of
/// "cotton", 15 ms of joining in SQLite and 5 ms of counting here, half the facets' time.
/// PostgreSQL still joins them (`string_agg`, `JoinedValueCounts`).
struct FacetTally: Sendable, Equatable {
    var brands: [String: Int] = [:]
    var categories: [String: Int] = [:]
    var stores: [String: Int] = [:]
    var colors: [String: Int] = [:]

    static let functionName = "facet_tally"

    /// Adds the function to a connection being opened (`SQLiteFunctions`).
    static func install(on connection: OpaquePointer?) -> Int32 {
        sqlite_nio_sqlite3_create_function_v2(
            connection, functionName, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, nil,
            { context, count, values in Accumulator.of(context)?.add(count, values) },
            { context in Accumulator.finish(context) },
            nil)
    }

    /// One aggregation's counts, kept through SQLite's aggregate context as a retained pointer.
    private final class Accumulator {
        // One aggregation runs on one thread: no exclusivity checks per row.
        @exclusivity(unchecked) var brands = ValueCounts()
        @exclusivity(unchecked) var categories = ValueCounts()
        @exclusivity(unchecked) var stores = ValueCounts()
        @exclusivity(unchecked) var colors = ValueCounts()
        /// A brand, category or store was a BLOB or REAL: the result is an error, not a count short.
        @exclusivity(unchecked) var corrupt = false

        /// The aggregation's accumulator, made at its first row.
        static func of(_ context: OpaquePointer?) -> Accumulator? {
            guard let slot = sqlite_nio_sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)) else {
                sqlite_nio_sqlite3_result_error_nomem(context)
                return nil
            }
            let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
            if let kept = pointer.pointee { return Unmanaged<Accumulator>.fromOpaque(kept).takeUnretainedValue() }
            let made = Accumulator()
            pointer.pointee = Unmanaged.passRetained(made).toOpaque()
            return made
        }

        func add(_ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
            guard count == 4, let values else { return }
            let added = brands.add(values[0]) && categories.add(values[1]) && stores.add(values[2])
            if !added { corrupt = true }
            colors.add(list: values[3])
        }

        /// The counts as the function's result; SQLite calls this once per aggregation, also one
        /// that ends early, so the accumulator is released here.
        static func finish(_ context: OpaquePointer?) {
            guard let slot = sqlite_nio_sqlite3_aggregate_context(context, 0),
                  let kept = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee else {
                sqlite_nio_sqlite3_result_null(context)
                return
            }
            let accumulator = Unmanaged<Accumulator>.fromOpaque(kept).takeRetainedValue()
            guard !accumulator.corrupt else {
                sqlite_nio_sqlite3_result_error(context, "facet_tally: a brand, category or store is neither a number nor a text", -1)
                return
            }
            let tally = FacetTally(
                brands: accumulator.brands.counts, categories: accumulator.categories.counts, stores: accumulator.stores.counts,
                colors: accumulator.colors.counts)
            tally.record.withUnsafeBytes { bytes in
                sqlite_nio_sqlite3_result_blob64(context, bytes.baseAddress, UInt64(bytes.count), SQLiteFunctions.copied)
            }
        }
    }

    /// Counts of SQLite values: integers by their bytes, texts by theirs (`ByteStringCounts`).
    private struct ValueCounts {
        private var numbers = ByteStringCounts()
        private var texts = ByteStringCounts()

        /// false for a value that is neither NULL, a number nor a text (corrupt data).
        mutating func add(_ value: OpaquePointer?) -> Bool {
            switch sqlite_nio_sqlite3_value_type(value) {
            case SQLITE_INTEGER:
                var number = sqlite_nio_sqlite3_value_int64(value)
                withUnsafeBytes(of: &number) { numbers.add($0) }
            case SQLITE_TEXT:
                texts.add(Self.bytes(value))
            case SQLITE_NULL:
                break
            default:
                return false
            }
            return true
        }

        /// Each value of a comma-joined text.
        mutating func add(list value: OpaquePointer?) {
            guard sqlite_nio_sqlite3_value_type(value) == SQLITE_TEXT else { return }
            texts.add(commaJoined: Self.bytes(value))
        }

        /// The counts by value as text (numbers in decimal).
        var counts: [String: Int] {
            var counts: [String: Int] = [:]
            numbers.forEach { bytes, n in counts[String(bytes.loadUnaligned(as: Int64.self)), default: 0] += n }
            texts.forEach { bytes, n in counts[String(decoding: bytes, as: UTF8.self), default: 0] += n }
            return counts
        }

        /// The value's text, valid until the next call on the value.
        private static func bytes(_ value: OpaquePointer?) -> UnsafeRawBufferPointer {
            guard let text = sqlite_nio_sqlite3_value_text(value) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: text, count: Int(sqlite_nio_sqlite3_value_bytes(value)))
        }
    }
}

extension FacetTally {
    /// The four facets in turn, each as its number of values, then each value as its count and its
    /// text, every number a little-endian UInt32 and each text preceded by its length in bytes.
    var record: [UInt8] {
        var bytes: [UInt8] = []
        func append(_ number: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: number).littleEndian) { bytes.append(contentsOf: $0) } }
        for facet in [brands, categories, stores, colors] {
            append(facet.count)
            for (value, count) in facet {
                append(count)
                append(value.utf8.count)
                bytes.append(contentsOf: value.utf8)
            }
        }
        return bytes
    }

    struct MalformedRecord: Error {}

    /// The counts of a `record`; a record that ends early or runs on is an error.
    init(record: some Collection<UInt8>) throws {
        var rest = record[...]
        func number() throws -> Int {
            guard rest.count >= 4 else { throw MalformedRecord() }
            let value = rest.prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            rest = rest.dropFirst(4)
            return value
        }
        var facets: [[String: Int]] = []
        for _ in 0..<4 {
            var facet: [String: Int] = [:]
            for _ in 0..<(try number()) {
                let count = try number(), length = try number()
                guard rest.count >= length else { throw MalformedRecord() }
                facet[String(decoding: rest.prefix(length), as: UTF8.self), default: 0] += count
                rest = rest.dropFirst(length)
            }
            facets.append(facet)
        }
        guard rest.isEmpty else { throw MalformedRecord() }
        self.init(brands: facets[0], categories: facets[1], stores: facets[2], colors: facets[3])
    }
}
