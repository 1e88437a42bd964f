import SQLKit

/// A database that runs several independent reads in one trip to the thread that reads (SQLite's
/// read pool, `PooledReadDatabase`): each trip there and back is two thread hand-offs, a fair part
/// of a small page's time (issue 19). Each statement still reads the database as of its own start.
protocol BatchedReads {
    func rows(of queries: [any SQLExpression]) async throws -> [[any SQLRow]]
}

extension SQLDatabase {
    /// The rows of independent reads, in their order: in one trip where the database can, else one
    /// statement after another.
    func readAll(_ queries: [any SQLExpression]) async throws -> [[any SQLRow]] {
        if let batched = self as? any BatchedReads { return try await batched.rows(of: queries) }
        var all: [[any SQLRow]] = []
        for query in queries { all.append(try await raw("\(query)").all()) }
        return all
    }
}
