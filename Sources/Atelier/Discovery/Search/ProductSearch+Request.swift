import Fluent
import Vapor

extension ProductSearch {
    /// The search of one request, reading from `db`: the app's ranked-page cache and clock, and the
    /// facets counted beside the page on a second connection where the database needs one.
    init(_ req: Request, db: any Database) {
        self.init(db: db, cache: req.atelier.searchCache, now: req.atelier.clock.now(), beside: req.sideReader(for: db))
    }
}
