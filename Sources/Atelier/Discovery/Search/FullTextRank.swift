import Foundation
import Synchronization
import VaporCSQLite

/// `sized_bm25(product_search_fts, weights…)`, an FTS5 auxiliary function that returns what FTS5's
/// own `bm25` returns, bit for bit, at a fraction of its cost (issue 19). SQLite's search ranks by
/// it (`SearchConditions.fullTextRank`).
///
/// `bm25` needs each match's length in tokens, which FTS5 reads from `product_search_fts_docsize`
/// by running a statement per match (reset, bind, step): for the 30 000 matches of a common word,
/// 12 of the 17 ms `bm25` takes in all, the rest of the search being a few ms. This function reads
/// the same record through one blob handle per query, moved from row to row with
/// `sqlite3_blob_reopen` (about a third of the cost), and computes the score with `bm25`'s formula
/// in `bm25`'s order of operations (fts5_aux.c), so ranks, ties and cursors are unchanged.
///
/// Where the handle cannot be had or moved (a row rewritten by the connection mid-query), it asks
/// FTS5 for the length as `bm25` does. It reads the lengths of `product_search_fts`, the one table
/// it is called on; a query's first row is read both ways, and a difference (another table) turns
/// the handle off for that query. Debug builds check every row's length against FTS5's.
enum FullTextRank {
    static let functionName = "sized_bm25"
    /// The only full-text table it is called on, and so the one whose lengths it reads.
    static let sizesTable = "product_search_fts_docsize"

    /// Adds the function to a connection being opened (`SQLiteFunctions`), through the `fts5_api`
    /// that FTS5 hands out to `SELECT fts5(?)` (FTS5 is built in and installed before automatic
    /// extensions run).
    static func install(on connection: OpaquePointer?) -> Int32 {
        var statement: OpaquePointer?
        var rc = sqlite_nio_sqlite3_prepare_v2(connection, "SELECT fts5(?1)", -1, &statement, nil)
        guard rc == SQLITE_OK else { return rc }
        defer { sqlite_nio_sqlite3_finalize(statement) }
        // FTS5 writes the pointer while the statement steps, so the slot must live until then.
        let slot = UnsafeMutablePointer<UnsafeMutablePointer<fts5_api>?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        defer { slot.deallocate() }
        rc = sqlite_nio_sqlite3_bind_pointer(
            statement, 1, slot, UnsafeRawPointer(apiPointerType.utf8Start).assumingMemoryBound(to: CChar.self), nil)
        guard rc == SQLITE_OK else { return rc }
        rc = sqlite_nio_sqlite3_step(statement)
        guard rc == SQLITE_ROW, let api = slot.pointee, let create = api.pointee.xCreateFunction else { return rc == SQLITE_ROW ? SQLITE_ERROR : rc }
        return create(api, functionName, nil, rank, nil)
    }

    /// SQLite compares a pointer's type by address first, then by text: a string that outlives the call.
    private static let apiPointerType: StaticString = "fts5_api_ptr"

    private static let k1 = 1.2
    private static let b = 0.75

    private static let rank: fts5_extension_function = { api, context, result, count, weights in
        guard let api, let query = Query.of(api, context, result) else { return }
        let length: Int32
        do {
            try query.frequencies(api, context, weights: UnsafeBufferPointer(start: weights, count: Int(count)))
            length = try query.length(api, context)
        } catch let failure as SQLiteCode {
            sqlite_nio_sqlite3_result_error_code(result, failure.rc)
            return
        } catch {
            sqlite_nio_sqlite3_result_error_code(result, SQLITE_ERROR)
            return
        }
        // bm25's sum, term for term (fts5Bm25Function).
        let d = Double(length)
        var score = 0.0
        for i in 0..<query.idf.count {
            let f = query.frequency[i]
            score += query.idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * d / query.averageLength)))
        }
        sqlite_nio_sqlite3_result_double(result, -1.0 * score)
    }

    private struct SQLiteCode: Error { var rc: Int32 }

    /// What one query's rows share: the phrases' IDFs and the average length (as `bm25` works them
    /// out once per query), and the blob handle on the lengths. Kept as the query's auxiliary data.
    private final class Query {
        let idf: [Double]
        let averageLength: Double
        @exclusivity(unchecked) var frequency: [Double]
        private let database: OpaquePointer?
        @exclusivity(unchecked) private var blob: OpaquePointer?
        /// Set when the handle cannot be had, or its first length differed from FTS5's (another
        /// table's rows): FTS5's lengths for the rest of the query.
        @exclusivity(unchecked) private var blobUnusable = false
        @exclusivity(unchecked) private var checkedFirst = false

        private init(idf: [Double], averageLength: Double, database: OpaquePointer?) {
            self.idf = idf
            self.averageLength = averageLength
            self.frequency = Array(repeating: 0, count: idf.count)
            self.database = database
        }

        deinit { if let blob { sqlite_nio_sqlite3_blob_close(blob) } }

        /// The query's state, made at its first row; nil after reporting an error.
        static func of(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?, _ result: OpaquePointer?) -> Query? {
            if let kept = api.pointee.xGetAuxdata(context, 0) { return Unmanaged<Query>.fromOpaque(kept).takeUnretainedValue() }
            do {
                let made = try make(api, context, database: sqlite_nio_sqlite3_context_db_handle(result))
                let rc = api.pointee.xSetAuxdata(context, Unmanaged.passRetained(made).toOpaque(), release)
                // xSetAuxdata calls `release` itself when it fails.
                guard rc == SQLITE_OK else { throw SQLiteCode(rc: rc) }
                return made
            } catch {
                sqlite_nio_sqlite3_result_error_code(result, (error as? SQLiteCode)?.rc ?? SQLITE_ERROR)
                return nil
            }
        }

        private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
            if let pointer { Unmanaged<Query>.fromOpaque(pointer).release() }
        }

        /// fts5Bm25GetData: rows and tokens of the table, and each phrase's IDF from the rows it matches.
        private static func make(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?, database: OpaquePointer?) throws -> Query {
            var rows: sqlite3_int64 = 0, tokens: sqlite3_int64 = 0
            try check(api.pointee.xRowCount(context, &rows))
            try check(api.pointee.xColumnTotalSize(context, -1, &tokens))
            let averageLength = Double(tokens) / Double(rows)
            var idf: [Double] = []
            for phrase in 0..<api.pointee.xPhraseCount(context) {
                var hits: sqlite3_int64 = 0
                try check(api.pointee.xQueryPhrase(context, phrase, &hits) { _, _, counter in
                    counter?.assumingMemoryBound(to: sqlite3_int64.self).pointee += 1
                    return SQLITE_OK
                })
                let value = log((Double(rows - hits) + 0.5) / (Double(hits) + 0.5))
                idf.append(value <= 0.0 ? 1e-6 : value)
            }
            return Query(idf: idf, averageLength: averageLength, database: database)
        }

        /// Each phrase's weighted count of instances in the row (a column's weight, or 1).
        func frequencies(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?, weights: UnsafeBufferPointer<OpaquePointer?>) throws {
            for i in frequency.indices { frequency[i] = 0 }
            var instances: Int32 = 0
            try check(api.pointee.xInstCount(context, &instances))
            for i in 0..<instances {
                var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
                try check(api.pointee.xInst(context, i, &phrase, &column, &offset))
                let weight = weights.count > Int(column) ? sqlite_nio_sqlite3_value_double(weights[Int(column)]) : 1.0
                frequency[Int(phrase)] += weight
            }
        }

        /// The row's length in tokens, all columns, as xColumnSize(-1) gives it. The first row's is
        /// read both ways, and debug builds (the tests) read every row's both ways and stop at a
        /// difference.
        func length(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?) throws -> Int32 {
            guard !blobUnusable, let read = readLength(of: api.pointee.xRowid(context), columns: api.pointee.xColumnCount(context)) else {
                return try ftsLength(api, context)
            }
            #if DEBUG
            FullTextRank.lengthsRead.add(1, ordering: .relaxed)
            let asked = try ftsLength(api, context)
            assert(read == asked, "\(FullTextRank.sizesTable) gave \(read) tokens for row \(api.pointee.xRowid(context)) where FTS5 gives \(asked)")
            #endif
            if !checkedFirst {
                checkedFirst = true
                let asked = try ftsLength(api, context)
                if asked != read {
                    blobUnusable = true
                    return asked
                }
            }
            return read
        }

        private func ftsLength(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?) throws -> Int32 {
            var tokens: Int32 = 0
            try check(api.pointee.xColumnSize(context, -1, &tokens))
            return tokens
        }

        /// The sum of the row's column sizes, SQLite varints in its `sz` record; nil where the handle
        /// cannot be had or moved there, or the record is not that.
        private func readLength(of row: sqlite3_int64, columns: Int32) -> Int32? {
            let rc = blob == nil
                ? sqlite_nio_sqlite3_blob_open(database, "main", FullTextRank.sizesTable, "sz", row, 0, &blob)
                : sqlite_nio_sqlite3_blob_reopen(blob, row)
            guard rc == SQLITE_OK, let blob else {
                // A handle that cannot be opened will not open on the next row either (each try
                // prepares a statement); one whose move failed (its row rewritten by this
                // connection, say) is aborted: a new one for the next row.
                if let blob { sqlite_nio_sqlite3_blob_close(blob) } else { blobUnusable = true }
                blob = nil
                return nil
            }
            let size = Int(sqlite_nio_sqlite3_blob_bytes(blob))
            guard size > 0, size <= 32 else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { record -> Int32? in
                guard sqlite_nio_sqlite3_blob_read(blob, record.baseAddress, Int32(size), 0) == SQLITE_OK else { return nil }
                var total: Int32 = 0, at = 0
                for _ in 0..<columns {
                    guard let (value, next) = Self.varint(record, from: at, end: size) else { return nil }
                    total &+= value
                    at = next
                }
                return at == size ? total : nil
            }
        }

        /// A 32-bit SQLite varint (big-endian groups of seven bits, high bit set on all but the last),
        /// kept to 31 bits as sqlite3Fts5GetVarint32 keeps it.
        private static func varint(_ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int, end: Int) -> (Int32, Int)? {
            var value: UInt32 = 0, at = start
            while at < end, at - start < 5 {
                let byte = bytes[at]
                value = (value << 7) | UInt32(byte & 0x7F)
                at += 1
                if byte < 0x80 { return (Int32(bitPattern: value & 0x7FFF_FFFF), at) }
            }
            return nil
        }
    }

    #if DEBUG
    /// Rows whose length was read through the handle, for the tests to see that it is.
    static let lengthsRead = Atomic<Int>(0)
    #endif

    private static func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw SQLiteCode(rc: rc) }
    }
}
