import Fluent
import SQLKit
import Vapor

/// `atelier search-reindex`: rebuilds the search text of every product and refreshes the query
/// planner's statistics. Normal writes keep the index in step; this is for bulk loads that write
/// rows directly (the benchmark data generator) and for repairs.
struct SearchReindexCommand: AsyncCommand {
    struct Signature: CommandSignature {}

    var help: String { "Rebuilds the product search index and runs ANALYZE." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let db = context.application.db
        let started = Date()
        try await SearchIndex(db: db).refresh(.all)
        try await db.sql.raw("ANALYZE").run()
        context.console.print("Search index rebuilt in \(Int(Date().timeIntervalSince(started) * 1000)) ms.")
    }
}
