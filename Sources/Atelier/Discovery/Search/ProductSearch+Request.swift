import Fluent
import Vapor

extension ProductSearch {
    /// The search of one request, reading from `db`, with the app's ranked-page cache and clock.
    init(_ req: Request, db: any Database) {
        self.init(db: db, cache: req.atelier.searchCache, now: req.atelier.clock.now())
    }
}
